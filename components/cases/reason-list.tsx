"use client";

import { useTranslations } from "next-intl";

import { useReasons } from "@/lib/cases/hooks";

/** The reasons an outcome cites, by their labels (the confirmer reads them before agreeing). */
export function ReasonList({ codes }: { codes: string[] }) {
  const t = useTranslations("cases.outcome");
  const reasons = useReasons();
  if (codes.length === 0) return null;
  const label = (code: string) => reasons.data?.reasons.find((reason) => reason.code === code)?.label ?? code;
  return (
    <p className="text-slate-800" data-testid="case-outcome-reasons">
      {t("citedReasons", { reasons: codes.map(label).join("; ") })}
    </p>
  );
}
