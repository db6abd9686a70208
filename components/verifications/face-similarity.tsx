"use client";

import { useTranslations } from "next-intl";

import { FACEMATCH_VALID_SIMILARITY } from "@/lib/upstream/model/verification";

import { ScoreBar } from "./score-bar";

/** The service's facematch similarity against its threshold, beside the comparison's title. */
export function FaceSimilarity({ similarity }: { similarity: number | undefined }) {
  const t = useTranslations("verifications.faces");
  const tStep = useTranslations("verifications.step");
  const valid = similarity !== undefined && similarity >= FACEMATCH_VALID_SIMILARITY;
  // The bar and its verdict side by side: one short row beside the comparison's title, above the pictures.
  return (
    <div className="flex w-full max-w-xl flex-wrap items-center gap-x-3 gap-y-1" data-face-similarity={similarity ?? ""}>
      {similarity !== undefined ? (
        <>
          <div className="min-w-48 flex-1">
            <ScoreBar
              label={tStep("similarity")}
              value={similarity}
              max={100}
              unit=" %"
              tone={valid ? "good" : "bad"}
              threshold={{ value: FACEMATCH_VALID_SIMILARITY, label: tStep("threshold", { threshold: FACEMATCH_VALID_SIMILARITY }) }}
              emptyText="—"
            />
          </div>
          <p className="text-sm text-slate-800">
            {valid
              ? tStep("aboveThreshold", { threshold: FACEMATCH_VALID_SIMILARITY })
              : tStep("belowThreshold", { threshold: FACEMATCH_VALID_SIMILARITY })}
          </p>
        </>
      ) : (
        <p className="text-sm text-slate-700">{t("noSimilarity")}</p>
      )}
    </div>
  );
}
