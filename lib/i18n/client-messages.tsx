import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";

import { pickMessages } from "./pick-messages";

/**
 * Hands the client components below it only the messages they use: `namespaces` are catalogue paths
 * ("verifications", "cases.flags", …). Whatever is given here is inlined in the page's HTML, so the root
 * layout gives none and each page (and each loading or not-found view that renders client components)
 * names its own. A provider replaces the messages of the one above it rather than adding to them: a list
 * names every path its subtree's `useTranslations` reads, and a missing one is an error at run time
 * (e2e/messages.spec.ts visits every page in both languages).
 */
export async function ClientMessages({ namespaces, children }: { namespaces: readonly string[]; children: ReactNode }) {
  const messages = await getMessages();
  return <NextIntlClientProvider messages={pickMessages(messages, namespaces)}>{children}</NextIntlClientProvider>;
}
