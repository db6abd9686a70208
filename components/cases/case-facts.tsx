"use client";

import { useTranslations } from "next-intl";

import { Alert } from "@/components/ui/alert";
import { BareButton } from "@/components/ui/button";
import { useDateTime } from "@/components/ui/use-formatters";
import { providerReviewStateToShow, stageOf } from "@/lib/cases/rules";
import type { CaseDetail } from "@/lib/cases/types";

import { FlagBadges } from "./case-badges";

/** Who holds the case (with the unassign beside it, `onUnassign` when offered), since when it waits, when it is due, its flags. */
export function CaseFacts({ detail, onUnassign, unassigning }: { detail: CaseDetail; onUnassign?: () => void; unassigning: boolean }) {
  const t = useTranslations("cases.panel");
  const dateTime = useDateTime();
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="font-medium text-slate-700">{t("assignee")}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-x-2">
        <span data-testid="case-assignee" className="break-all">
          {detail.assignee ? detail.assignee.email : t("nobody")}
        </span>
        {onUnassign ? (
          <BareButton
            type="button"
            disabled={unassigning}
            onClick={onUnassign}
            className="rounded px-1 text-sm text-brand-800 underline underline-offset-2 hover:bg-slate-100 disabled:text-slate-500"
          >
            {t("unassign")}
          </BareButton>
        ) : null}
      </dd>
      <dt className="font-medium text-slate-700">{t("waitingSince")}</dt>
      <dd data-testid="case-waiting-since">{dateTime(detail.openedAt)}</dd>
      <dt className="font-medium text-slate-700">{t("due")}</dt>
      <dd>{dateTime(detail.dueAt)}</dd>
      <dt className="font-medium text-slate-700">{t("firstSeen")}</dt>
      <dd data-testid="case-first-seen">{detail.firstSeenAt ? dateTime(detail.firstSeenAt) : "—"}</dd>
      <dt className="font-medium text-slate-700">{t("flags")}</dt>
      <dd>{detail.flags.length ? <FlagBadges flags={detail.flags} /> : t("noFlags")}</dd>
    </dl>
  );
}

/**
 * Where the case stands: decided here or escalated, the provider's own review sub-state where it differs, closed with
 * which status (or because the person's flow expired), and a disagreement with the service.
 */
export function CaseStageNotes({ detail }: { detail: CaseDetail }) {
  const t = useTranslations("cases.panel");
  const tr = useTranslations("cases.recommendation");
  const stage = stageOf(detail);
  const atProvider = providerReviewStateToShow(detail);
  return (
    <>
      {atProvider ? (
        <p className="text-sm" data-testid="case-provider-review-state">
          {t("providerReviewState", { state: atProvider })}
        </p>
      ) : null}
      {detail.status !== "open" && detail.closedReason === "expired" ? (
        <p className="text-sm" data-testid="case-closed-expired">
          {t("closedExpired")}
        </p>
      ) : null}
      {stage === "decided" ? (
        <p className="text-sm" data-testid="case-stage">
          {t("decidedHere")}
        </p>
      ) : stage === "escalated" ? (
        <p className="text-sm" data-testid="case-stage">
          {t("escalatedTo", { owner: detail.assignee?.email ?? t("nobodyYet") })}
        </p>
      ) : null}
      {detail.status !== "open" && detail.finalStatus ? (
        <p className="text-sm">{t("closedFinal", { status: detail.finalStatus })}</p>
      ) : null}
      {detail.disagreement && detail.recommendation ? (
        <Alert tone="warning" title={t("disagreement", { status: detail.finalStatus ?? "", recommendation: tr(detail.recommendation) })} />
      ) : null}
    </>
  );
}
