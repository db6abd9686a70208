"use client";

import { useLocale, useTranslations } from "next-intl";
import { useTransition } from "react";

import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { setLocale } from "@/lib/i18n/set-locale";

export function LanguageSwitcher() {
  const t = useTranslations("common.language");
  const locale = useLocale();
  const [pending, startTransition] = useTransition();
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only sm:not-sr-only">{t("label")}</span>
      <select
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm disabled:opacity-60"
        value={locale}
        disabled={pending}
        aria-busy={pending}
        onChange={(event) => {
          const next = event.target.value as Locale;
          startTransition(() => setLocale(next));
        }}
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
