"use client";

import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useDateTime } from "@/components/ui/use-formatters";
import { hasPermission, type Permission } from "@/lib/auth/permissions";
import { useAddNote, useAssignCase, useCase, useConfirmOutcome, usePrefetchCase, useReasons, useRecordOutcome } from "@/lib/cases/hooks";
import { caseHref, queueHref } from "@/lib/cases/queue-context";
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
import { CASE_SHORTCUTS, ShortcutsDialog } from "./shortcuts-dialog";

export interface Viewer {
  id: string;
  permissions: readonly Permission[];
}

/**
 * The decision panel of the case page: owner, recommendation, reasons, note, confirmation, with the case
 * page's keyboard shortcuts (CASE_SHORTCUTS, listed on `?`). `context` is the queue it was opened from, so
 * next, previous and back keep its tab, filters and sort. `verificationPart` is what the verification page
 * adds to the panel (re-verification, the next case's pictures read ahead): the verifications feature's, which
 * this one does not import.
 */
export function CaseWork({
  publicId,
  viewer,
  context = "",
  verificationPart,
}: {
  publicId: string;
  viewer: Viewer;
  context?: string;
  verificationPart?: (detail: CaseDetail) => ReactNode;
}) {
  const t = useTranslations("cases.panel");
  const query = useCase(publicId, context);
  if (!query.data) return null;
  const detail = query.data.case;
  if (!detail) return <p className="text-sm text-slate-600">{t("none")}</p>;
  return <CasePanel detail={detail} viewer={viewer} context={context} verificationPart={verificationPart} />;
}

/** The case's timeline (below the evidence on the case page). */
export function CaseHistory({ publicId, context = "" }: { publicId: string; context?: string }) {
  const query = useCase(publicId, context);
  const detail = query.data?.case;
  return detail ? <CaseTimeline detail={detail} /> : null;
}

/** Typing in a field must never trigger a shortcut. */
function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName));
}

const byId = (id: string) => document.getElementById(id) as HTMLElement | null;

/** Set by a recommend shortcut: the outcome form focuses the first reason once it shows that recommendation's reasons. */
const reasonFocus = { pending: false };

/**
 * The case page's shortcuts. Keys act through the panel's own controls (a click, a focus, a form submit), so
 * what a key does is exactly what the control does, with the same checks and messages.
 */
function useCaseShortcuts({ detail, context, onHelp }: { detail: CaseDetail; context: string; onHelp: () => void }) {
  const router = useRouter();
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey || event.metaKey) return;
      if (document.querySelector("[role=dialog]")) return;
      const target = event.target as HTMLElement | null;
      if (isTyping(target) && target?.getAttribute("type") !== "checkbox" && target?.getAttribute("type") !== "radio") {
        // In a field: Ctrl+Enter sends its form, Escape leaves the field for the shortcuts.
        if (event.ctrlKey && event.key === "Enter") {
          const form = target?.closest("form");
          if (form) {
            event.preventDefault();
            form.requestSubmit();
          }
        } else if (event.key === "Escape") {
          byId("case-panel-title")?.focus();
        }
        return;
      }
      if (event.ctrlKey) return;
      const click = (id: string) => {
        const element = byId(id);
        element?.click();
        return !!element;
      };
      const focus = (id: string) => {
        const element = byId(id);
        element?.focus();
        return !!element;
      };
      const recommend = (value: Recommendation) => {
        if (!byId(`case-rec-${value}`)) return false;
        // The reasons of that recommendation appear after the render (and after the catalogue has loaded):
        // the outcome form then gives the first one the focus.
        reasonFocus.pending = true;
        click(`case-rec-${value}`);
        return true;
      };
      let handled = true;
      if (event.key === "a") handled = click("case-assign");
      else if (event.key === "n") handled = focus("case-note");
      else if (event.key === "p") handled = recommend("approve");
      else if (event.key === "x") handled = recommend("reprove");
      else if (event.key === "e") handled = recommend("escalate");
      else if (/^[1-9]$/.test(event.key)) {
        const box = byId("case-reasons")?.querySelectorAll<HTMLInputElement>("input[type=checkbox]")[Number(event.key) - 1];
        handled = !!box;
        box?.click();
        box?.focus();
      } else if (event.key === "c") handled = focus("case-outcome-comment") || focus("case-confirm-comment");
      else if (event.key === "s") {
        const form = byId("case-outcome-form") as HTMLFormElement | null;
        handled = !!form;
        form?.requestSubmit();
      } else if (event.key === "y") handled = click("case-agree");
      else if (event.key === "j" && detail.next) router.push(caseHref(detail.next, context));
      else if (event.key === "k" && detail.previous) router.push(caseHref(detail.previous, context));
      else if (event.key === "u") router.push(queueHref(context));
      else if (event.key === "?") onHelp();
      else handled = false;
      if (handled) event.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [detail.next, detail.previous, context, router, onHelp]);
}

function ErrorLine({ error }: { error: ApiRequestError | null }) {
  return error ? <Alert tone="error" title={error.message} /> : null;
}

function CasePanel({
  detail,
  viewer,
  context,
  verificationPart,
}: {
  detail: CaseDetail;
  viewer: Viewer;
  context: string;
  verificationPart?: (detail: CaseDetail) => ReactNode;
}) {
  const t = useTranslations("cases.panel");
  const [helpOpen, setHelpOpen] = useState(false);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  useCaseShortcuts({ detail, context, onHelp: openHelp });
  // Focus is never lost: a control that goes away after an action (assign, record, confirm) hands the focus
  // to the panel's heading, where the shortcuts go on working.
  useEffect(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) byId("case-panel-title")?.focus({ preventScroll: true });
  });
  // The next case of the queue is read before the analyst asks for it: its case, its page's route, its image
  // tokens and pictures (into memory only, for a member who may see images), each a read ahead on the audit
  // trail; the pictures are recorded as seen when "next" shows them (those two: `verificationPart`).
  const prefetchCase = usePrefetchCase();
  const router = useRouter();
  useEffect(() => {
    if (!detail.next) return;
    void prefetchCase(detail.next, context);
    router.prefetch(caseHref(detail.next, context));
  }, [detail.next, context, prefetchCase, router]);

  const tr = useTranslations("cases.recommendation");
  const dateTime = useDateTime();
  const assign = useAssignCase(detail.publicId);
  const mine = detail.assignee?.id === viewer.id;
  const open = detail.status === "open";
  const stage = stageOf(detail);
  const escalated = stage === "escalated";
  const ownEscalation = escalated && detail.outcomeBy?.id === viewer.id;
  // A background read (the live stream, a poll) never takes the claim button from under the analyst's pointer:
  // when someone else takes the case while it is offered here, the panel says who holds it and the button stays
  // until the analyst acts (the server then answers who holds it, and the button goes). Adjusted while rendering.
  const assigneeId = detail.assignee?.id ?? null;
  const [shownAssignee, setShownAssignee] = useState(assigneeId);
  const [keepClaim, setKeepClaim] = useState(false);
  const [claimed, setClaimed] = useState(false);
  if (assigneeId !== shownAssignee) {
    setShownAssignee(assigneeId);
    setKeepClaim(shownAssignee === null && assigneeId !== null && assigneeId !== viewer.id && !claimed);
    if (assigneeId === null) setClaimed(false);
  }
  const claim = () => {
    setClaimed(true);
    assign.mutate({ assignee: "me" }, { onSettled: () => setKeepClaim(false) });
  };
  const offerClaim = !detail.assignee || (keepClaim && !mine);
  return (
    <section aria-labelledby="case-panel-title" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="case-panel-title" tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-2 focus:outline-brand-700">
          {t("title")} <StateBadge status={detail.status} outcomeState={detail.outcomeState} recommendation={detail.recommendation} />
        </h2>
        <nav className="flex gap-2 text-sm" aria-label={t("title")}>
          <Link href={queueHref(context)} className="text-brand-800 underline underline-offset-2" data-testid="case-back">
            {t("backToQueue")}
          </Link>
          {detail.previous ? (
            <Link href={caseHref(detail.previous, context)} rel="prev" className="text-brand-800 underline underline-offset-2">
              ← {t("previous")}
            </Link>
          ) : null}
          {detail.next ? (
            <Link href={caseHref(detail.next, context)} rel="next" className="text-brand-800 underline underline-offset-2">
              {t("next")} →
            </Link>
          ) : null}
          <button type="button" onClick={openHelp} className="text-brand-800 underline underline-offset-2">
            {t("shortcuts")}
          </button>
        </nav>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium text-slate-700">{t("assignee")}</dt>
        <dd className="flex min-w-0 flex-wrap items-center gap-x-2">
          <span data-testid="case-assignee" className="break-all">
            {detail.assignee ? detail.assignee.email : t("nobody")}
          </span>
          {open && detail.assignee && (mine || hasPermission(viewer, "cases.assign")) ? (
            <button
              type="button"
              disabled={assign.isPending}
              onClick={() => assign.mutate({ assignee: null })}
              className="rounded px-1 text-sm text-brand-800 underline underline-offset-2 hover:bg-slate-100 disabled:text-slate-500"
            >
              {t("unassign")}
            </button>
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
      {/* The first screen at 1440×900 holds what a reviewer decides with (issue 22): the claim, the outcome and
          its button. The unassign sits beside the assignee; the re-verification, the note and the provider's
          notice come after the outcome. */}
      {open && (!detail.assignee || !mine) ? (
        <div className="flex flex-wrap items-center gap-2">
          {!detail.assignee && ownEscalation ? (
            <p className="text-sm text-slate-700">{t("ownEscalation")}</p>
          ) : offerClaim ? (
            <Button id="case-assign" pending={assign.isPending} onClick={claim}>
              {escalated ? t("takeEscalation") : t("assignToMe")}
            </Button>
          ) : null}
          {detail.assignee ? (
            <p className="text-sm font-medium text-amber-900" role="status">
              {t("takenBy", { email: detail.assignee.email })}
            </p>
          ) : null}
        </div>
      ) : null}
      <ErrorLine error={assign.error} />
      <OutcomeSection detail={detail} viewer={viewer} />
      {verificationPart?.(detail)}
      {mine || hasPermission(viewer, "cases.assign") ? (
        <NoteForm publicId={detail.publicId} />
      ) : (
        <p className="text-xs text-slate-600">{t("noteOnlyAssignee")}</p>
      )}
      <p className="rounded-md bg-sky-50 px-2 py-1 text-xs text-sky-900">{t("providerNotice")}</p>
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} shortcuts={CASE_SHORTCUTS} />
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
    add.mutate({ text }, { onSuccess: () => setText(""), onSettled: () => byId("case-note")?.focus() });
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
        rows={2}
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
  const tt = useTranslations("cases.timeline");
  const dateTime = useDateTime();
  const mine = detail.assignee?.id === viewer.id;
  const open = detail.status === "open";
  return (
    <div className="space-y-2 border-t border-slate-200 pt-3">
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
  useEffect(() => {
    if (!reasonFocus.pending || offered.length === 0) return;
    reasonFocus.pending = false;
    byId("case-reasons")?.querySelector<HTMLInputElement>("input[type=checkbox]")?.focus();
  }, [recommendation, offered.length]);
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
    <form id="case-outcome-form" onSubmit={submit} className="space-y-2" aria-label={t("title")}>
      <fieldset aria-describedby="case-outcome-needs-confirmation">
        <legend className="text-sm font-medium text-slate-800">{t("recommendation")}</legend>
        <div className="mt-1 flex flex-wrap gap-4">
          {RECOMMENDATIONS.map((value) => (
            <label key={value} className="flex items-center gap-1 text-sm">
              <input
                id={`case-rec-${value}`}
                type="radio"
                name="recommendation"
                value={value}
                checked={recommendation === value}
                onChange={() => choose(value)}
              />
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
        <div id="case-reasons" className="mt-1 grid grid-cols-1 gap-1 sm:grid-cols-2">
          {offered.map((reason, index) => (
            <label key={reason.code} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                value={reason.code}
                checked={chosen.includes(reason.code)}
                onChange={(event) =>
                  setChosen((list) => (event.target.checked ? [...list, reason.code] : list.filter((code) => code !== reason.code)))
                }
              />
              {index < 9 ? (
                <kbd aria-hidden="true" className="rounded border border-slate-300 px-1 font-mono text-xs text-slate-600">
                  {index + 1}
                </kbd>
              ) : null}
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
      <p id="case-outcome-needs-confirmation" className="text-xs text-slate-600">
        {t("needsConfirmation")}
      </p>
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
        <Button id="case-agree" pending={confirm.isPending} onClick={() => confirm.mutate({ agree: true, comment })}>
          {t("agree")}
        </Button>
        <Button variant="danger" pending={confirm.isPending} onClick={() => confirm.mutate({ agree: false, comment })}>
          {t("disagree")}
        </Button>
      </div>
    </form>
  );
}
