import "./globals.css";

import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import { headers } from "next/headers";
import type { ReactNode } from "react";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("common");
  return { title: t("appName"), robots: { index: false, follow: false }, manifest: "/manifest.webmanifest" };
}

/**
 * Every page renders per request, which the CSP nonce proxy.ts makes for each response requires (a cached
 * page would repeat one): reading the request headers here says so. Next marks its own scripts with the
 * nonce by itself; any script this app adds (`next/script`) must carry it too.
 */
async function perRequest(): Promise<void> {
  await headers();
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale] = await Promise.all([getLocale(), perRequest()]);
  return (
    <html lang={locale}>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        {/* Locale, time zone and clock for every client component, but no messages: each page and the
            signed-in shell hand theirs down with ClientMessages (lib/i18n/client-messages.tsx), so a page's
            HTML inlines only what its own client components read. react-query's provider is each page's that
            reads queries (components/ui/query-provider.tsx): the sign-in pages and the overview load none of it. */}
        <NextIntlClientProvider messages={{}}>{children}</NextIntlClientProvider>
      </body>
    </html>
  );
}
