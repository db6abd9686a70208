"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useMemo, type ComponentProps } from "react";

import { connectionOfPath, inConnection, withoutConnection } from "@/lib/shared/connection-path";

/*
 * Links and navigation that stay under the page's connection: a page at /c/production/cases links to
 * /c/production/verifications/…, never to the default connection's (lib/shared/connection-path.ts). The dashboard's
 * one way to link and navigate: ESLint refuses next/link and next/navigation's useRouter elsewhere.
 */

/** The connection the page's address names, or null (the default). */
export function useAddressConnection(): string | null {
  return connectionOfPath(usePathname());
}

/** The page's address without its connection prefix: what navigation matches its entries against. */
export function usePagePath(): string {
  return withoutConnection(usePathname());
}

/** `href` under the page's connection. */
export function useConnectionHref(): (href: string) => string {
  const connection = useAddressConnection();
  return (href) => inConnection(href, connection);
}

export function AppLink({ href, ...props }: ComponentProps<typeof Link>) {
  const connection = useAddressConnection();
  const target =
    typeof href === "string"
      ? inConnection(href, connection)
      : { ...href, ...(href.pathname ? { pathname: inConnection(href.pathname, connection) } : {}) };
  return <Link href={target} {...props} />;
}

/** next/navigation's router, every address put under the page's connection. */
export function useAppRouter(): ReturnType<typeof useRouter> {
  const router = useRouter();
  const connection = useAddressConnection();
  return useMemo(
    () => ({
      ...router,
      // The options only when given, as the caller passed them.
      push: (href, ...options) => router.push(inConnection(href, connection), ...options),
      replace: (href, ...options) => router.replace(inConnection(href, connection), ...options),
      prefetch: (href, ...options) => router.prefetch(inConnection(href, connection), ...options),
    }),
    [router, connection],
  );
}
