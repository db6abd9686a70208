"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useDateTime } from "@/components/verifications/format";
import { hasPermission, type Permission } from "@/lib/auth/permissions";
import { useAddNote, useAssignCase, useCase, useConfirmOutcome, useReasons, useRecordOutcome } from "@/lib/cases/queries";
import {
  NOTE_MAX_CHARS,
  outcomeProblems,
  REASONS_BY_RECOMMENDATION,
  RECOMMENDATIONS,
  stageOf,
  type OutcomeProblem,
  type ReasonCode,
  type Recommendation,
} from "@/lib/cases/rules";
import type { CaseDetail } from "@/lib/cases/types";
import type { ApiRequestError } from "@/lib/shared/api-client/api-request";

import { FlagBadges, StateBadge } from "./case-badges";
import { CaseTimeline } from "./case-timeline";
import { ReasonList } from "./reason-list";

export interface Viewer {
  id: string;
  permissions: readonly Permission[];
}

/** The case section of the verification detail: owner, notes, recommendation, four eyes, timeline. */
export function CaseWork({ publicId, viewer }: { publicId: string; viewer: Viewer }) {
  const t = useTranslations("cases.panel");
  const query = useCase(publicId);
  if (!query.data) return null;
  const detail = query.data.case;
  if (!detail) return <p className="text-sm text-slate-600">{t("none")}</p>;
  return (
    <div className="space-y-4">
      <CasePanel detail={detail} viewer={viewer} />
      <CaseTimeline detail={detail} />
    </div>
  );
}

function ErrorLine({ error }: { error: ApiRequestError | null }) {
  return error ? <Alert tone="error" title={error.message} /> : null;
}

function CasePanel({ detail, viewer }: { detail: CaseDetail; viewer: Viewer }) {
  const t = useTranslations("cases.panel");
  const tr = useTranslations("cases.recommendation");
  const dateTime = useDateTime();
  const assign = useAssignCase(detail.publicId);
  const mine = detail.assignee?.id === viewer.id;
  const open = detail.status === "open";
  const stage = stageOf(detail);
  const escalated = stage === "escalated";
  const ownEscalation = escalated && detail.outcomeBy?.id === viewer.id;
  return (
    <section aria-labelledby="case-panel-title" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="case-panel-title" className="text-base font-semibold text-slate-900">
          {t("title")} <StateBadge status={detail.status} outcomeState={detail.outcomeState} recommendation={detail.recommendation} />
        </h2>
        <nav className="flex gap-2 text-sm" aria-label={t("title")}>
          <Link href="/cases" className="text-brand-800 underline underline-offset-2">
            {t("backToQueue")}
          </Link>
          {detail.previous ? (
            <Link href={`/verifications/${encodeURIComponent(detail.previous)}`} className="text-brand-800 underline underline-offset-2">
              ← {t("previous")}
            </Link>
          ) : null}
          {detail.next ? (
            <Link href={`/verifications/${encodeURIComponent(detail.next)}`} className="text-brand-800 underline underline-offset-2">
              {t("next")} →
            </Link>
          ) : null}
        </nav>
      </div>
      <p className="rounded-md bg-sky-50 p-3 text-sm text-sky-900">{t("providerNotice")}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium text-slate-700">{t("assignee")}</dt>
        <dd data-testid="case-assignee">{detail.assignee ? detail.assignee.email : t("nobody")}</dd>
        <dt className="font-medium text-slate-700">{t("waitingSince")}</dt>
        <dd data-testid="case-waiting-since">{dateTime(detail.openedAt)}</dd>
        <dt className="font-medium text-slate-700">{t("due")}</dt>
        <dd>{dateTime(detail.dueAt)}</dd>
        <dt className="font-medium text-slate-700">{t("firstSeen")}</dt>
        <dd data-testid="case-first-seen">{detail.firstSeenAt ? dateTime(detail.firstSeenAt) : "—"}</dd>
        <dt className="font-medium text-slate-700">{t("flags")}</dt>
        <dd>{detail.flags.length ? <FlagBadges flags={detail.flags} /> : t("noFlags")}</dd>
      </dl>
      {stage === "decided" ? (
        <p className="text-sm" data-testid="case-stage">
          {t("decidedHere")}
        </p>
      ) : escalated ? (
        <p className="text-sm" data-testid="case-stage">
          {t("escalatedTo", { owner: detail.assignee?.email ?? t("nobodyYet") })}
        </p>
      ) : null}
      {!open && detail.finalStatus ? <p className="text-sm">{t("closedFinal", { status: detail.finalStatus })}</p> : null}
      {detail.disagreement && detail.recommendation ? (
        <Alert tone="warning" title={t("disagreement", { status: detail.finalStatus ?? "", recommendation: tr(detail.recommendation) })} />
      ) : null}
      {open ? (
        <div className="flex flex-wrap gap-2">
          {!detail.assignee && ownEscalation ? (
            <p className="text-sm text-slate-700">{t("ownEscalation")}</p>
          ) : !detail.assignee ? (
            <Button pending={assign.isPending} onClick={() => assign.mutate({ assignee: "me" })}>
              {escalated ? t("takeEscalation") : t("assignToMe")}
            </Button>
          ) : !mine ? (
            <p className="text-sm font-medium text-amber-900" role="status">
              {t("takenBy", { email: detail.assignee.email })}
            </p>
          ) : null}
          {detail.assignee && (mine || hasPermission(viewer, "cases.assign")) ? (
            <Button variant="secondary" pending={assign.isPending} onClick={() => assign.mutate({ assignee: null })}>
              {t("unassign")}
            </Button>
          ) : null}
        </div>
      ) : null}
      <ErrorLine error={assign.error} />
      <NoteForm publicId={detail.publicId} />
      <OutcomeSection detail={detail} viewer={viewer} />
    </section>
  );
}

function NoteForm({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.note");
  const add = useAddNote(publicId);
  const [text, setText] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    // The text stays in the field until the note is stored: a refusal loses nothing typed.
    add.mutate({ text }, { onSuccess: () => setText("") });
  }
  return (
    <form onSubmit={submit} className="space-y-2">
      <label htmlFor="case-note" className="block text-sm font-medium text-slate-800">
        {t("label")}
      </label>
      <textarea
        id="case-note"
        value={text}
        maxLength={NOTE_MAX_CHARS}
        onChange={(event) => setText(event.target.value)}
        aria-describedby="case-note-hint"
        rows={3}
        className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      <p id="case-note-hint" className="text-xs text-slate-600">
        {t("hint", { max: NOTE_MAX_CHARS })}
      </p>
      <ErrorLine error={add.error} />
      <Button type="submit" variant="secondary" pending={add.isPending} disabled={text.trim() === ""}>
        {t("submit")}
      </Button>
    </form>
  );
}

function OutcomeSection({ detail, viewer }: { detail: CaseDetail; viewer: Viewer }) {
  const t = useTranslations("cases.outcome");
  const tr = useTranslations("cases.recommendation");
  const mine = detail.assignee?.id === viewer.id;
  const open = detail.status === "open";
  return (
    <div className="space-y-3 border-t border-slate-200 pt-3">
      <h3 className="text-sm font-semibold text-slate-900">{t("title")}</h3>
      {detail.recommendation && detail.outcomeBy ? (
        <div className="text-sm" data-testid="case-outcome">
          <p className="font-medium">{t("current", { recommendation: tr(detail.recommendation), author: detail.outcomeBy.email })}</p>
          <ReasonList codes={detail.reasons} />
          {detail.outcomeComment ? (
            <blockquote
              className="mt-1 border-l-2 border-slate-300 pl-2 whitespace-pre-wrap text-slate-800"
              data-testid="case-outcome-comment"
            >
              {detail.outcomeComment}
            </blockquote>
          ) : null}
          {detail.outcomeState === "pending_confirmation" ? (
            <p>{detail.outcomeBy.id === viewer.id ? t("ownOutcome") : t("waiting")}</p>
          ) : null}
          {detail.outcomeState === "confirmed" && detail.confirmedBy ? (
            <p>{t("confirmedBy", { email: detail.confirmedBy.email })}</p>
          ) : null}
          {detail.outcomeState === "rejected" && detail.confirmedBy ? <p>{t("rejectedBy", { email: detail.confirmedBy.email })}</p> : null}
        </div>
      ) : null}
      {open && detail.outcomeState === "pending_confirmation" && detail.outcomeBy?.id !== viewer.id ? (
        <ConfirmForm publicId={detail.publicId} />
      ) : null}
      {open && mine && detail.outcomeState !== "confirmed" ? <OutcomeForm publicId={detail.publicId} /> : null}
      {open && !mine ? <p className="text-xs text-slate-600">{t("onlyAssignee")}</p> : null}
    </div>
  );
}

function OutcomeForm({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.outcome");
  const tr = useTranslations("cases.recommendation");
  const reasons = useReasons();
  const record = useRecordOutcome(publicId);
  const [recommendation, setRecommendation] = useState<Recommendation>("approve");
  const [chosen, setChosen] = useState<string[]>([]);
  const [comment, setComment] = useState("");
  // The rule the server applies, checked here first so a wrong outcome is said before it is sent.
  const [problems, setProblems] = useState<OutcomeProblem[]>([]);
  const offered = (reasons.data?.reasons ?? []).filter((reason) => reason.recommendations.includes(recommendation));
  function choose(value: Recommendation) {
    setRecommendation(value);
    // A reason of another recommendation never travels with this one.
    setChosen((list) => list.filter((code) => (REASONS_BY_RECOMMENDATION[value] as readonly string[]).includes(code)));
    setProblems([]);
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = outcomeProblems({ recommendation, reasons: chosen, comment });
    setProblems(found);
    if (found.length > 0) return;
    record.mutate({ recommendation, reasons: chosen as ReasonCode[], comment });
  }
  const fieldError = (field: "reasons" | "comment") => {
    const problem = problems.find((item) => item.field === field);
    if (problem) return t(`problems.${problem.code}`);
    return record.error?.fields.includes(field) ? record.error.message : null;
  };
  const commentRequired = recommendation === "reprove";
  return (
    <form onSubmit={submit} className="space-y-3" aria-label={t("title")}>
      <p className="text-xs text-slate-600">{t("needsConfirmation")}</p>
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t("recommendation")}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {RECOMMENDATIONS.map((value) => (
            <label key={value} className="flex items-center gap-1 text-sm">
              <input type="radio" name="recommendation" value={value} checked={recommendation === value} onChange={() => choose(value)} />
              {tr(value)}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset aria-describedby="case-reasons-hint">
        <legend className="text-sm font-medium text-slate-800">{t("reasons")}</legend>
        <p id="case-reasons-hint" className="text-xs text-slate-600">
          {t("reasonsHint")}
        </p>
        <div className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
          {offered.map((reason) => (
            <label key={reason.code} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                value={reason.code}
                checked={chosen.includes(reason.code)}
                onChange={(event) =>
                  setChosen((list) => (event.target.checked ? [...list, reason.code] : list.filter((code) => code !== reason.code)))
                }
              />
              {reason.label}
            </label>
          ))}
        </div>
        {fieldError("reasons") ? (
          <p id="case-reasons-error" className="text-sm text-red-800">
            {fieldError("reasons")}
          </p>
        ) : null}
      </fieldset>
      <label htmlFor="case-outcome-comment" className="block text-sm font-medium text-slate-800">
        {commentRequired ? t("commentRequired") : t("comment")}
      </label>
      <textarea
        id="case-outcome-comment"
        value={comment}
        aria-required={commentRequired || undefined}
        aria-invalid={fieldError("comment") ? true : undefined}
        aria-describedby={fieldError("comment") ? "case-comment-error" : undefined}
        onChange={(event) => setComment(event.target.value)}
        rows={2}
        className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      {fieldError("comment") ? (
        <p id="case-comment-error" className="text-sm text-red-800">
          {fieldError("comment")}
        </p>
      ) : null}
      {record.error && !fieldError("reasons") && !fieldError("comment") ? <ErrorLine error={record.error} /> : null}
      {record.isSuccess ? <p role="status">{t("recorded")}</p> : null}
      <Button type="submit" pending={record.isPending}>
        {t("submit")}
      </Button>
    </form>
  );
}

function ConfirmForm({ publicId }: { publicId: string }) {
  const t = useTranslations("cases.confirm");
  const confirm = useConfirmOutcome(publicId);
  const [comment, setComment] = useState("");
  return (
    <form
      onSubmit={(event) => event.preventDefault()}
      className="space-y-2 rounded-md border border-sky-200 bg-sky-50 p-3"
      aria-label={t("title")}
    >
      <h4 className="text-sm font-semibold">{t("title")}</h4>
      <label htmlFor="case-confirm-comment" className="block text-sm font-medium text-slate-800">
        {t("comment")}
      </label>
      <textarea
        id="case-confirm-comment"
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        rows={2}
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
      />
      <ErrorLine error={confirm.error} />
      {confirm.isSuccess ? <p role="status">{t("done")}</p> : null}
      <div className="flex gap-2">
        <Button pending={confirm.isPending} onClick={() => confirm.mutate({ agree: true, comment })}>
          {t("agree")}
        </Button>
        <Button variant="danger" pending={confirm.isPending} onClick={() => confirm.mutate({ agree: false, comment })}>
          {t("disagree")}
        </Button>
      </div>
    </form>
  );
}
