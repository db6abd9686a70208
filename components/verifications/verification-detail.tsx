"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { useDateTime } from "@/components/ui/use-formatters";
import { isDecided, type Verification } from "@/lib/upstream/model/verification";

import { DetailItem } from "./detail-item";
import { DocumentRecordComparison } from "./document-record-comparison";
import { GenericValue } from "./generic-value";
import { useFlowLabel, useJourneyLabel } from "./labels";
import { MaskedMarker } from "./masked-marker";
import { RedFlagSummary } from "./red-flag-summary";
import { StatusBadge } from "./status-badge";
import { StepCard } from "./step-card";
import { VerificationScores } from "./verification-person";
import { VerificationScreening } from "./verification-screening";

export function VerificationDetail({
  verification,
  media,
  navigation,
  related,
  canLookUp = false,
}: {
  verification: Verification;
  /** The member holds `lookups.run`: the person's records can be looked up beside the document. */
  canLookUp?: boolean;
  media?: ReactNode;
  /** The same person's other verifications (components/verifications/same-person-panel.tsx). */
  related?: ReactNode;
  /** Previous / next within the list the analyst came from. */
  navigation?: ReactNode;
}) {
  const t = useTranslations("verifications.detail");
  const flowLabel = useFlowLabel();
  const journeyLabel = useJourneyLabel();
  const dateTime = useDateTime();
  const notInformed = <span className="text-slate-600">{t("notInformed")}</span>;
  const extra = Object.entries(verification.extra);

  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <h1 className="text-2xl font-semibold">
          {t("title")} <span className="font-mono text-lg break-all text-slate-700">{verification.publicId}</span>
        </h1>
      </header>

      {/* The red flags come first: above the fold on a phone too, before the masked-data note. */}
      <RedFlagSummary verification={verification} />
      {verification.documentMasked ? <MaskedMarker by={verification.maskedBy} /> : null}
      {navigation}

      <section aria-labelledby="summary-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="summary-heading" className="sr-only">
          {t("summary")}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <DetailItem term={t("status")}>
            <StatusBadge status={verification.status} />
          </DetailItem>
          {/* An outcome's date only: a decided_at on a verification still in review would read as a decision. */}
          <DetailItem term={t("decidedAt")}>
            {isDecided(verification.status) ? (
              (dateTime(verification.decidedAt) ?? notInformed)
            ) : (
              <span className="text-slate-600">{t("notDecided")}</span>
            )}
          </DetailItem>
          <DetailItem term={t("createdAt")}>{dateTime(verification.createdAt) ?? notInformed}</DetailItem>
          <DetailItem term={`${t("flow")} / ${t("journey")}`}>
            <span title={[verification.flow, verification.journey].filter(Boolean).join(" / ")}>
              {flowLabel(verification.flow) ?? "—"} / {journeyLabel(verification.journey) ?? "—"}
            </span>
          </DetailItem>
        </dl>
      </section>

      {related}

      <div className="grid gap-6 lg:grid-cols-2">
        <DocumentRecordComparison verification={verification} canLookUp={canLookUp} />
        <VerificationScores verification={verification} />
      </div>

      <section aria-labelledby="steps-heading">
        <h2 id="steps-heading" className="text-lg font-semibold">
          {t("steps")}
        </h2>
        {verification.steps.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{t("noSteps")}</p>
        ) : (
          <div className="mt-3 grid gap-4 md:grid-cols-2 xl:grid-cols-3">
            {verification.steps.map((step) => (
              <StepCard key={step.name} step={step} />
            ))}
          </div>
        )}
      </section>

      <VerificationScreening verification={verification} />

      {media}

      {extra.length > 0 ? (
        <section aria-labelledby="extra-heading" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="extra-heading" className="text-lg font-semibold">
            {t("otherFields")}
          </h2>
          <p className="text-sm text-slate-600">{t("otherFieldsHint")}</p>
          <dl className="mt-3 grid gap-4 sm:grid-cols-2">
            {extra.map(([key, value]) => (
              <DetailItem key={key} term={key}>
                <GenericValue value={value} />
              </DetailItem>
            ))}
          </dl>
        </section>
      ) : null}
    </div>
  );
}
