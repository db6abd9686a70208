"use client";

import { useTranslations } from "next-intl";

import { useDateTime } from "@/components/ui/use-formatters";
import type { CaseDetail } from "@/lib/cases/types";

import { ConfirmForm } from "./confirm-form";
import { DecisionForm } from "./decision-form";
import { ReasonList } from "./reason-list";
import type { Viewer } from "./viewer";

/** The outcome recorded on the case: who recommended what and why, and where its confirmation stands. */
function OutcomeSummary({ detail, viewer }: { detail: CaseDetail; viewer: Viewer }) {
  const t = useTranslations("cases.outcome");
  const tr = useTranslations("cases.recommendation");
  const tt = useTranslations("cases.timeline");
  const dateTime = useDateTime();
  if (!detail.recommendation || !detail.outcomeBy) return null;
  return (
    <div className="text-sm" data-testid="case-outcome">
      <p className="font-medium">{t("current", { recommendation: tr(detail.recommendation), author: detail.outcomeBy.email })}</p>
      <ReasonList codes={detail.reasons} />
      {detail.outcomeComment ? (
        <blockquote className="mt-1 border-l-2 border-slate-300 pl-2 whitespace-pre-wrap text-slate-800" data-testid="case-outcome-comment">
          {detail.outcomeComment}
        </blockquote>
      ) : detail.outcomeCommentUnreadable ? (
        <p className="mt-1 text-slate-600 italic" data-testid="case-outcome-comment">
          {tt(
            detail.outcomeCommentUnreadable.unsealed
              ? "unsealed"
              : detail.outcomeCommentUnreadable.retired
                ? "sealedRetired"
                : "sealedDamaged",
            {
              keyId: detail.outcomeCommentUnreadable.keyId,
            },
          )}
        </p>
      ) : detail.erasedAt ? (
        <p className="mt-1 text-slate-600 italic" data-testid="case-outcome-comment">
          {tt("erased", { date: dateTime(detail.erasedAt) ?? "" })}
        </p>
      ) : null}
      {detail.outcomeState === "pending_confirmation" ? <p>{detail.outcomeBy.id === viewer.id ? t("ownOutcome") : t("waiting")}</p> : null}
      {detail.outcomeState === "confirmed" && detail.confirmedBy ? <p>{t("confirmedBy", { email: detail.confirmedBy.email })}</p> : null}
      {detail.outcomeState === "rejected" && detail.confirmedBy ? <p>{t("rejectedBy", { email: detail.confirmedBy.email })}</p> : null}
    </div>
  );
}

/** The panel's outcome: the recorded one, the confirmation for a second person, the decision form for the assignee. */
export function OutcomeSection({ detail, viewer }: { detail: CaseDetail; viewer: Viewer }) {
  const t = useTranslations("cases.outcome");
  const mine = detail.assignee?.id === viewer.id;
  const open = detail.status === "open";
  return (
    <div className="space-y-2 border-t border-slate-200 pt-3">
      <h3 className="text-sm font-semibold text-slate-900">{t("title")}</h3>
      <OutcomeSummary detail={detail} viewer={viewer} />
      {open && detail.outcomeState === "pending_confirmation" && detail.outcomeBy?.id !== viewer.id ? (
        <ConfirmForm publicId={detail.publicId} />
      ) : null}
      {open && mine && detail.outcomeState !== "confirmed" ? <DecisionForm publicId={detail.publicId} /> : null}
      {open && !mine ? <p className="text-xs text-slate-600">{t("onlyAssignee")}</p> : null}
    </div>
  );
}
