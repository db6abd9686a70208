"use client";

import { useTranslations } from "next-intl";

import { CreateKeyDialog } from "@/components/integrations/create-key-dialog";
import { IntegrationKeys } from "@/components/integrations/integration-keys";

export function IntegrationsPageClient() {
  const t = useTranslations("integrations");
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-3xl space-y-1">
          <h1 className="text-2xl font-semibold text-slate-900">{t("title")}</h1>
          <p className="text-sm text-slate-700">{t("intro")}</p>
        </div>
        <CreateKeyDialog />
      </header>
      <IntegrationKeys />
    </div>
  );
}
