"use client";

import { useTranslations } from "next-intl";

import { BareButton } from "@/components/ui/button";

export default function DashboardError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("common");
  return (
    <section role="alert" className="rounded-lg border border-red-200 bg-red-50 p-6">
      <h1 className="text-lg font-semibold text-red-900">{t("error.title")}</h1>
      <p className="mt-1 text-red-800">{t("error.body")}</p>
      <BareButton
        type="button"
        onClick={reset}
        className="mt-4 rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800"
      >
        {t("retry")}
      </BareButton>
    </section>
  );
}
