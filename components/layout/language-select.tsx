import { useTranslations } from "next-intl";

import { LOCALES, type Locale } from "@/lib/i18n/locales";

/*
 * The header's language choice, drawn once: by the switcher (./language-switcher.tsx) and, until the page has loaded
 * and the switcher's code with it, as its stand-in drawn by the server (`onChoose` left out: disabled, no handler).
 */
export function LanguageSelect({
  locale,
  pending = false,
  onChoose,
}: {
  locale: Locale;
  pending?: boolean;
  onChoose?: (locale: Locale) => void;
}) {
  const t = useTranslations("common.language");
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only sm:not-sr-only">{t("label")}</span>
      <select
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm disabled:opacity-60"
        value={locale}
        disabled={!onChoose || pending}
        aria-busy={pending}
        onChange={onChoose ? (event) => onChoose(event.target.value as Locale) : undefined}
      >
        {LOCALES.map((option) => (
          <option key={option} value={option}>
            {t(option)}
          </option>
        ))}
      </select>
    </label>
  );
}
