"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { createContext, useContext, useMemo, type ComponentProps, type ReactNode } from "react";

import { connectionOfPath, inConnection, withoutConnection } from "@/lib/shared/connection-path";

/*
 * Links and navigation that stay under the page's connection: a page at /c/production/cases links to
 * /c/production/verifications/…, never to the default connection's (lib/shared/connection-path.ts). The dashboard's
 * one way to link and navigate: ESLint refuses next/link and next/navigation's useRouter elsewhere.
 */

/*
 * The server renders a page at /c/production/… from the address the proxy rewrote it to (without the prefix), and
 * usePathname there answers that one; the browser's answers the address it shows. React keeps the server's
 * attributes when it hydrates, so a link drawn from the server's answer kept an address without the connection: opened
 * in a new tab or downloaded, it worked under the default connection. The signed-in layout hands down the connection
 * the address it was asked for names (the proxy's path header), on the server and in the browser alike. It stays
 * right for the page's life: moving to another connection is always a whole page load (the switcher, a notification
 * or a "lives elsewhere" link), which draws the layout again.
 */
const AddressConnection = createContext<string | null | undefined>(undefined);

export function AddressConnectionProvider({ connection, children }: { connection: string | null; children: ReactNode }) {
  return <AddressConnection.Provider value={connection}>{children}</AddressConnection.Provider>;
}

/** The connection the page's address names, or null (the default). */
export function useAddressConnection(): string | null {
  const fromLayout = useContext(AddressConnection);
  const pathname = usePathname();
  return fromLayout !== undefined ? fromLayout : connectionOfPath(pathname);
}

/** The page's address without its connection prefix: what navigation matches its entries against. */
export function usePagePath(): string {
  return withoutConnection(usePathname());
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
