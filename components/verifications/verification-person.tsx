"use client";

import { useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";
import { useNumber } from "@/components/ui/use-formatters";
import { SCORE_SCALE, type Verification } from "@/lib/upstream/model/verification";

import { DetailItem } from "./detail-item";
import { RiskScale } from "./risk-scale";
import { ScoreBar } from "./score-bar";

/** The person the verification is about, as the service describes them (masked when it masks). */
export function VerificationPerson({ verification }: { verification: Verification }) {
  const t = useTranslations("verifications.detail");
  const { person } = verification;
  const notInformed = <span className="text-slate-600">{t("notInformed")}</span>;
  return (
    <section aria-labelledby="person-heading" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="person-heading" className="text-lg font-semibold">
        {t("person")}
      </h2>
      <dl className="mt-3 grid gap-4 sm:grid-cols-2">
        <DetailItem term={t("document")}>
          <span className="font-mono">{verification.document}</span>
          {verification.documentMasked ? (
            <Badge tone="neutral" className="ml-2">
              ***
            </Badge>
          ) : null}
        </DetailItem>
        <DetailItem term={t("name")}>{person.name ?? notInformed}</DetailItem>
        <DetailItem term={t("motherName")}>{person.motherName ?? notInformed}</DetailItem>
        <DetailItem term={t("birthDate")}>{person.birthDate ?? notInformed}</DetailItem>
        <DetailItem term={t("pep")}>{person.pep === undefined ? notInformed : person.pep ? t("yes") : t("no")}</DetailItem>
      </dl>
    </section>
  );
}

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
