import type { Locale } from "./locales";

/*
 * One catalogue per language, split into a file per feature (messages/<locale>/<namespace>.json) so
 * each feature owns its strings. A test checks that both languages hold exactly the same keys.
 */
export const NAMESPACES = [
  "common",
  "errors",
  "auth",
  "staff",
  "roles",
  "verifications",
  "lookups",
  "kyc",
  "integrations",
  "connections",
  "audit",
  "cases",
  "events",
  "overview",
  "account",
  "stepUp",
  "notifications",
  "views",
  "erasure",
  "privacy",
  "analytics",
  "coaf",
  "monitoring",
] as const;

export type Messages = Record<(typeof NAMESPACES)[number], Record<string, unknown>>;

export async function loadMessages(locale: Locale): Promise<Messages> {
  const entries = await Promise.all(
    NAMESPACES.map(async (namespace) => {
      const file = (await import(`../../messages/${locale}/${namespace}.json`)) as { default: Record<string, unknown> };
      return [namespace, file.default] as const;
    }),
  );
  return Object.fromEntries(entries) as Messages;
}
