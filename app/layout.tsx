import "./globals.css";

import { GeistMono } from "geist/font/mono";
import { GeistSans } from "geist/font/sans";
import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import { headers } from "next/headers";
import type { ReactNode } from "react";

import { NONCE_HEADER } from "@/lib/security/csp";

import { Providers } from "./providers";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("common");
  return { title: t("appName"), robots: { index: false, follow: false }, manifest: "/manifest.webmanifest" };
}

/**
 * The nonce proxy.ts made for this response. Next marks its own scripts with it by itself; any script
 * this app adds (`next/script`) must carry it too. Reading request headers also makes every page render
 * per request, which a nonce requires: a cached page would repeat one.
 */
async function scriptNonce(): Promise<string | undefined> {
  return (await headers()).get(NONCE_HEADER) ?? undefined;
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [locale, nonce] = await Promise.all([getLocale(), scriptNonce()]);
  return (
    <html lang={locale} className={`${GeistSans.variable} ${GeistMono.variable}`}>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        {/* Locale, time zone and clock for every client component, but no messages: each page and the
            signed-in shell hand theirs down with ClientMessages (i18n/client-messages.tsx), so a page's
            HTML inlines only what its own client components read. */}
        <NextIntlClientProvider messages={{}}>
          <Providers nonce={nonce}>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
