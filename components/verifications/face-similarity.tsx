"use client";

import { useTranslations } from "next-intl";

import { useNumber } from "@/components/ui/use-formatters";
import { FACEMATCH_VALID_SIMILARITY } from "@/lib/upstream/model/verification";

/**
 * The service's facematch similarity against its threshold, on one line beside the comparison's title (above the
 * pictures, so it must not push them down): its name, the meter with the validity line drawn across it, the value,
 * and the verdict in words. Never colour alone.
 */
export function FaceSimilarity({ similarity }: { similarity: number | undefined }) {
  const t = useTranslations("verifications.faces");
  const tStep = useTranslations("verifications.step");
  const number = useNumber();
  if (similarity === undefined)
    return (
      <p className="text-sm text-slate-700" data-face-similarity="">
        {t("noSimilarity")}
      </p>
    );
  const valid = similarity >= FACEMATCH_VALID_SIMILARITY;
  const line = tStep("threshold", { threshold: FACEMATCH_VALID_SIMILARITY });
  const valueText = `${number(similarity)} %`;
  return (
    <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm" data-face-similarity={similarity}>
      <span className="font-medium text-slate-800">{tStep("similarity")}</span>
      <div
        role="meter"
        aria-label={tStep("similarity")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={similarity}
        aria-valuetext={valueText}
        className="relative h-2.5 w-32 rounded-full bg-slate-200"
      >
        <div
          className={`h-2.5 rounded-full ${valid ? "bg-emerald-600" : "bg-amber-600"}`}
          style={{ width: `${Math.min(100, Math.max(0, similarity))}%` }}
        />
        <div
          className="absolute -top-1 -bottom-1 w-0.5 bg-slate-900"
          style={{ left: `${FACEMATCH_VALID_SIMILARITY}%` }}
          aria-hidden="true"
          title={line}
        />
      </div>
      <span className="font-semibold text-slate-900 tabular-nums">{valueText}</span>
      <span className={valid ? "text-emerald-900" : "font-medium text-amber-900"}>{valid ? t("valid") : t("invalid")}</span>
      <span className="text-xs text-slate-600">({line})</span>
    </div>
  );
}
