// Shared (no server imports): the dashboard's languages. pt-BR first: it is the default.
export const LOCALES = ["pt-BR", "en"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "pt-BR";
/** Cookie holding the user's explicit choice; it wins over Accept-Language. */
export const LOCALE_COOKIE = "NEXT_LOCALE";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * Picks the best supported language from an Accept-Language header: exact tag first, then the primary
 * subtag ("pt-PT" and "pt" fall to pt-BR, "en-GB" to en), honouring q-values.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const ranked = acceptLanguage
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const exact = LOCALES.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const primary = tag.split("-")[0];
    const byPrimary = LOCALES.find((locale) => locale.toLowerCase().split("-")[0] === primary);
    if (byPrimary) return byPrimary;
  }
  return DEFAULT_LOCALE;
}

/** The dashboard's language: the user's choice (the language cookie's value) when it names one, else Accept-Language. */
export function chooseLocale(chosen: string | undefined, acceptLanguage: string | null | undefined): Locale {
  return isLocale(chosen) ? chosen : negotiateLocale(acceptLanguage);
}
