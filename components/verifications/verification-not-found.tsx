"use client";

import { useTranslations } from "next-intl";

import { AppLink as Link } from "@/components/ui/app-link";

export function VerificationNotFound() {
  const t = useTranslations("verifications");
  return (
    <section role="alert" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">{t("errors.not_found.title")}</h1>
      <p className="mt-1 text-slate-700">{t("errors.not_found.body")}</p>
      <Link href="/verifications" className="mt-3 inline-block text-sm font-medium text-brand-800 underline underline-offset-2">
        {t("detail.back")}
      </Link>
    </section>
  );
}
