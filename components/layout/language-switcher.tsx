"use client";

import { useLocale } from "next-intl";
import { useTransition } from "react";

import type { Locale } from "@/lib/i18n/locales";
import { setLocale } from "@/lib/i18n/set-locale";

import { LanguageSelect } from "./language-select";

export function LanguageSwitcher() {
  const locale = useLocale() as Locale;
  const [pending, startTransition] = useTransition();
  return <LanguageSelect locale={locale} pending={pending} onChoose={(next) => startTransition(() => setLocale(next))} />;
}
