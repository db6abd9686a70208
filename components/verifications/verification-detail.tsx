"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { Badge } from "@/components/ui/badge";
import { useDateTime, useNumber } from "@/components/ui/use-formatters";
import type { RestrictiveListEntry, Verification } from "@/lib/upstream/model/verification";
/*
 * Everything one verification says. Fields the contract does not list are shown generically at the end
 * rather than dropped.
 */

import { isDecided, SCORE_SCALE } from "@/lib/upstream/model/verification";

import { GenericValue } from "./generic-value";
import { useFlowLabel, useJourneyLabel } from "./labels";
import { MaskedMarker } from "./masked-marker";
import { RedFlagSummary } from "./red-flag-summary";
import { RiskScale } from "./risk-scale";
import { ScoreBar } from "./score-bar";
import { StatusBadge } from "./status-badge";
import { StepCard } from "./step-card";

export { SCORE_SCALE };

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{term}</dt>
      <dd className="mt-0.5 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

function RestrictiveLists({ entries }: { entries: RestrictiveListEntry[] }) {
  const t = useTranslations("verifications.detail");
  const dateTime = useDateTime();
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-800">{t("restrictiveLists")}</h3>
      <p className="mt-1 text-sm text-slate-700">{t("restrictiveListsCount", { count: entries.length })}</p>
      {entries.length > 0 ? (
        <table className="mt-2 w-full table-auto border-collapse text-sm">
          <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">
                {t("listName")}
              </th>
              <th scope="col" className="px-3 py-2">
                {t("listSource")}
              </th>
              <th scope="col" className="px-3 py-2">
                {t("listedAt")}
              </th>
              <th scope="col" className="px-3 py-2">
                {t("listOther")}
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${entry.name ?? ""}-${index}`} className="border-t border-slate-100 align-top">
                <th scope="row" className="px-3 py-2 text-left font-medium">
                  {entry.name ?? <span className="text-slate-600">{t("notInformed")}</span>}
                </th>
                <td className="px-3 py-2">{entry.source ?? <span className="text-slate-600">{t("notInformed")}</span>}</td>
                <td className="px-3 py-2">
                  {entry.listedAt ? (
                    (dateTime(entry.listedAt, "date") ?? entry.listedAt)
                  ) : (
                    <span className="text-slate-600">{t("notInformed")}</span>
                  )}
                </td>
                <td className="px-3 py-2">
                  {Object.keys(entry.extra).length ? <GenericValue value={entry.extra} /> : <span className="text-slate-600">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

export function VerificationDetail({
  verification,
  media,
  navigation,
  related,
}: {
  verification: Verification;
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
  const number = useNumber();
  const { person } = verification;
  const masked = verification.documentMasked;
  const notInformed = <span className="text-slate-600">{t("notInformed")}</span>;
  const extra = Object.entries(verification.extra);
  const scoreMax = (value: number | null) => Math.max(SCORE_SCALE, value ?? 0);

  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <h1 className="text-2xl font-semibold">
          {t("title")} <span className="font-mono text-lg break-all text-slate-700">{verification.publicId}</span>
        </h1>
      </header>

      {/* The red flags come first: above the fold on a phone too, before the masked-data note. */}
      <RedFlagSummary verification={verification} />
      {masked ? <MaskedMarker by={verification.maskedBy} /> : null}
      {navigation}

      <section aria-labelledby="summary-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="summary-heading" className="sr-only">
          {t("summary")}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Item term={t("status")}>
            <StatusBadge status={verification.status} />
          </Item>
          {/* An outcome's date only: a decided_at on a verification still in review would read as a decision. */}
          <Item term={t("decidedAt")}>
            {isDecided(verification.status) ? (
              (dateTime(verification.decidedAt) ?? notInformed)
            ) : (
              <span className="text-slate-600">{t("notDecided")}</span>
            )}
          </Item>
          <Item term={t("createdAt")}>{dateTime(verification.createdAt) ?? notInformed}</Item>
          <Item term={`${t("flow")} / ${t("journey")}`}>
            <span title={[verification.flow, verification.journey].filter(Boolean).join(" / ")}>
              {flowLabel(verification.flow) ?? "—"} / {journeyLabel(verification.journey) ?? "—"}
            </span>
          </Item>
        </dl>
      </section>

      {related}

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="person-heading" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="person-heading" className="text-lg font-semibold">
            {t("person")}
          </h2>
          <dl className="mt-3 grid gap-4 sm:grid-cols-2">
            <Item term={t("document")}>
              <span className="font-mono">{verification.document}</span>
              {masked ? (
                <Badge tone="neutral" className="ml-2">
                  ***
                </Badge>
              ) : null}
            </Item>
            <Item term={t("name")}>{person.name ?? notInformed}</Item>
            <Item term={t("motherName")}>{person.motherName ?? notInformed}</Item>
            <Item term={t("birthDate")}>{person.birthDate ?? notInformed}</Item>
            <Item term={t("pep")}>{person.pep === undefined ? notInformed : person.pep ? t("yes") : t("no")}</Item>
          </dl>
        </section>

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

      <section aria-labelledby="screening-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="screening-heading" className="text-lg font-semibold">
          {t("screening")}
        </h2>
        <div>
          <h3 className="text-sm font-semibold text-slate-800">{t("pepOrigin")}</h3>
          {verification.pepOrigin ? (
            <p className="mt-1 flex items-center gap-2 text-sm">
              <Badge tone="warning">PEP</Badge>
              {verification.pepOrigin}
            </p>
          ) : (
            <p className="mt-1 text-sm text-slate-700">{t("noPepOrigin")}</p>
          )}
        </div>
        <RestrictiveLists entries={verification.restrictiveLists} />
      </section>

      {media}

      {extra.length > 0 ? (
        <section aria-labelledby="extra-heading" className="rounded-lg border border-slate-200 bg-white p-4">
          <h2 id="extra-heading" className="text-lg font-semibold">
            {t("otherFields")}
          </h2>
          <p className="text-sm text-slate-600">{t("otherFieldsHint")}</p>
          <dl className="mt-3 grid gap-4 sm:grid-cols-2">
            {extra.map(([key, value]) => (
              <Item key={key} term={key}>
                <GenericValue value={value} />
              </Item>
            ))}
          </dl>
        </section>
      ) : null}
    </div>
  );
}
