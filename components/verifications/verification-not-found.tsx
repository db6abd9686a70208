"use client";

import { useTranslations } from "next-intl";

import { AppLink as Link } from "@/components/ui/app-link";

export interface ElsewhereNote {
  publicId: string;
  id: string;
  name: string;
  environment: "sandbox" | "production";
}

export function VerificationNotFound({ elsewhere = null }: { elsewhere?: ElsewhereNote | null }) {
  const t = useTranslations("verifications");
  return (
    <section role="alert" className="rounded-lg border border-slate-200 bg-white p-6">
      <h1 className="text-xl font-semibold">{t("errors.not_found.title")}</h1>
      <p className="mt-1 text-slate-700">{t("errors.not_found.body")}</p>
      {elsewhere ? (
        <p className="mt-2 text-slate-800" data-testid="verification-elsewhere">
          {t("errors.not_found.elsewhere", {
            name: elsewhere.name,
            environment: t(`errors.not_found.environment.${elsewhere.environment}`),
          })}{" "}
          <Link
            href={`/c/${elsewhere.id}/verifications/${encodeURIComponent(elsewhere.publicId)}`}
            className="font-medium text-brand-800 underline underline-offset-2"
          >
            {t("errors.not_found.openThere", { name: elsewhere.name })}
          </Link>
        </p>
      ) : null}
      <Link href="/verifications" className="mt-3 inline-block text-sm font-medium text-brand-800 underline underline-offset-2">
        {t("detail.back")}
      </Link>
    </section>
  );
}
