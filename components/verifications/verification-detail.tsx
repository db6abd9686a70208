import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { recordSubjectOf } from "@/lib/lookups/compare";
import type { Verification } from "@/lib/upstream/model/verification";

import { DetailItem } from "./detail-item";
import { DocumentRecordComparison } from "./document-record-comparison";
import { GenericValue } from "./generic-value";
import { MaskedMarker } from "./masked-marker";
import { RedFlagSummary } from "./red-flag-summary";
import { StepCard } from "./step-card";
import { VerificationHeader } from "./verification-header";
import { VerificationScores } from "./verification-person";
import { VerificationScreening } from "./verification-screening";

/*
 * Evidence first, always (issue 32): the selfie, the document and the face match sit on the first screen at
 * 1440×900 and 1280×720, whatever else a verification has. Before the evidence come only the slots below, each
 * one line (the header two): the header, the red flags as chips, and the notices, each a one-line disclosure.
 * Anything else (a panel, a list, a notice that says "nothing known") goes after the evidence.
 * verification-detail.test.tsx holds the order: a new child before the evidence fails it unless it is one of
 * these slots; e2e/evidence-first.spec.ts measures the first screen.
 */

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
  /** The same person's other verifications (components/verifications/same-person-panel.tsx), after the evidence. */
  related?: ReactNode;
  /** Previous / next within the list the analyst came from, in the header. */
  navigation?: ReactNode;
}) {
  const t = useTranslations("verifications.detail");
  const extra = Object.entries(verification.extra);

  return (
    <div className="space-y-3" data-evidence-column>
      <VerificationHeader verification={verification} navigation={navigation} />
      {/* The red flags come first: above the fold on a phone too. */}
      <div data-slot="red-flags">
        <RedFlagSummary verification={verification} />
      </div>
      {verification.documentMasked ? (
        <div data-slot="notices" className="flex flex-col gap-1">
          <MaskedMarker by={verification.maskedBy} />
        </div>
      ) : null}

      <div data-slot="evidence" className="space-y-4">
        {media}
      </div>

      <div data-slot="after-evidence" className="space-y-6">
        {related}
        {/* The document's data as the service gives it, beside the person's records (looked up on request): an island
            handed only what it compares. */}
        <DocumentRecordComparison verification={recordSubjectOf(verification)} canLookUp={canLookUp} />
        <VerificationScores verification={verification} />

        <section aria-labelledby="steps-heading">
          <h2 id="steps-heading" className="text-lg font-semibold">
            {t("steps")}
          </h2>
          {verification.steps.length === 0 ? (
            <p className="mt-1 text-sm text-slate-600">{t("noSteps")}</p>
          ) : (
            <div className="mt-3 grid gap-4 md:grid-cols-2 xl:grid-cols-3">
              {verification.steps.map((step) => (
                <StepCard key={step.name} step={step} />
              ))}
            </div>
          )}
        </section>

        <VerificationScreening verification={verification} />

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
    </div>
  );
}
