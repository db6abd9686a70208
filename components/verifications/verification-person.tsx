import { useTranslations } from "next-intl";

import { useNumber } from "@/components/ui/use-formatters";
import { SCORE_SCALE, type Verification } from "@/lib/upstream/model/verification";

import { RiskScale } from "./risk-scale";
import { ScoreBar } from "./score-bar";

/** The identity score on its scale (widened when the service answers above it) and the risk score in bands. */
export function VerificationScores({ verification }: { verification: Verification }) {
  const t = useTranslations("verifications.detail");
  const number = useNumber();
  const scoreMax = (value: number | null) => Math.max(SCORE_SCALE, value ?? 0);
  return (
    <section aria-labelledby="scores-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="scores-heading" className="text-lg font-semibold">
        {t("scores")}
      </h2>
      <ScoreBar
        label={t("identityScore")}
        value={verification.identityScore}
        max={scoreMax(verification.identityScore)}
        valueText={
          verification.identityScore === null
            ? undefined
            : t("scoreScale", { value: number(verification.identityScore), max: number(scoreMax(verification.identityScore)) })
        }
        emptyText={t("noScore")}
      />
      <RiskScale score={verification.riskScore} label={t("riskScore")} emptyText={t("noScore")} />
    </section>
  );
}
