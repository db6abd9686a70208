import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { useDateTime } from "@/components/ui/use-formatters";
import { canExpire, isDecided, type Verification } from "@/lib/upstream/model/verification";

import { FlowExpiryTime } from "./flow-expiry";
import { useFlowLabel, useJourneyLabel } from "./labels";
import { StatusBadge } from "./status-badge";

/** One term and its value on the header's line. */
function InlineItem({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-baseline gap-1.5">
      <dt className="text-slate-600">{term}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * Until when the person's flow is open (`expires_at`; api/verification-statuses.mdx: expiry is not a status), with the
 * time left or since it ended (./flow-expiry.tsx, kept current in the browser), while the flow is still theirs to
 * finish (not opened, started). Absent in review or decided, and when the service does not say.
 */
function FlowExpiry({ verification }: { verification: Verification }) {
  const t = useTranslations("verifications.detail");
  const date = useDateTime()(verification.expiresAt);
  if (!verification.expiresAt || !date) return null;
  // Only while the flow is the person's to finish: in review or decided the date says nothing an analyst acts on,
  // and the header's line is the case page's first screen (the decision form's button must stay on it).
  if (!canExpire(verification.status) || Number.isNaN(new Date(verification.expiresAt).getTime())) return null;
  return (
    <InlineItem term={t("expiresAt")}>
      <FlowExpiryTime expiresAt={verification.expiresAt} date={date} />
    </InlineItem>
  );
}

/**
 * The verification's header on one or two lines: its id, the way back and to its neighbours (`navigation`), then
 * its status, dates (the flow's expiry with the time left) and flow. Compact on purpose: the evidence follows it on the first screen (verification-detail.tsx).
 */
export function VerificationHeader({ verification, navigation }: { verification: Verification; navigation?: ReactNode }) {
  const t = useTranslations("verifications.detail");
  const flowLabel = useFlowLabel();
  const journeyLabel = useJourneyLabel();
  const dateTime = useDateTime();
  const notInformed = <span className="text-slate-600">{t("notInformed")}</span>;
  return (
    <header className="space-y-1" data-slot="header">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h1 className="text-lg font-semibold">
          {t("title")} <span className="font-mono text-sm break-all text-slate-700">{verification.publicId}</span>
        </h1>
        <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1 text-sm">{navigation}</div>
      </div>
      <section aria-labelledby="summary-heading">
        <h2 id="summary-heading" className="sr-only">
          {t("summary")}
        </h2>
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <InlineItem term={t("status")}>
            <StatusBadge status={verification.status} />
          </InlineItem>
          <InlineItem term={t("createdAt")}>{dateTime(verification.createdAt) ?? notInformed}</InlineItem>
          {/* An outcome's date only: a decided_at on a verification still in review would read as a decision. */}
          <InlineItem term={t("decidedAt")}>
            {isDecided(verification.status) ? (
              (dateTime(verification.decidedAt) ?? notInformed)
            ) : (
              <span className="text-slate-600">{t("notDecided")}</span>
            )}
          </InlineItem>
          <FlowExpiry verification={verification} />
          <InlineItem term={`${t("flow")} / ${t("journey")}`}>
            <span title={[verification.flow, verification.journey].filter(Boolean).join(" / ")}>
              {flowLabel(verification.flow) ?? "—"} / {journeyLabel(verification.journey) ?? "—"}
            </span>
          </InlineItem>
        </dl>
      </section>
    </header>
  );
}
