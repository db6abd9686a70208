"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId, useState, type FormEvent, type ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CpfField, type CpfFieldProblem } from "@/components/ui/cpf-field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { TitledSection } from "@/components/ui/titled-section";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { postErasure, postErasureDecision } from "@/lib/privacy/browser-requests";
import {
  ERASED_KINDS,
  erasureReasonProblem,
  MAX_ERASURE_REASON_LENGTH,
  type ErasureDto,
  type ErasureListResponse,
  type ErasureReasonProblem,
  type ErasureResult,
} from "@/lib/privacy/erasure";
import { refusalOf } from "@/lib/shared/api-client/api-request";
import { cpfProblem } from "@/lib/shared/cpf";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/*
 * Erasure requests on /admin/privacy (messages: the `erasure` namespace). One member asks (CPF and reason),
 * another confirms from the pending list; the requester sees why their own Confirm is disabled. Asking and
 * confirming need a fresh second factor: the step-up dialog opens by itself (components/auth/step-up-dialog.tsx).
 * The page draws the lists on the server and shows none of it to a member without `privacy.erase`; asking and
 * deciding have the page drawn again (the outcome and a confirmed erasure's result stay shown meanwhile).
 */
export function ErasurePanel({ data }: { data: ErasureListResponse }) {
  const t = useTranslations("erasure");
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(null);
  const [shown, setShown] = useState<ErasureDto | null>(null);

  return (
    <TitledSection
      id="erasure-heading"
      title={t("heading")}
      lead={t("intro")}
      leadClassName="max-w-3xl text-slate-600"
      className="space-y-6"
    >
      <RequestForm onAsked={(erasure) => setNotice({ tone: "success", text: t("form.sent", { document: erasure.documentMasked }) })} />
      <div aria-live="polite" className="space-y-4">
        {notice ? <Alert tone={notice.tone}>{notice.text}</Alert> : null}
        {shown?.result ? <ResultView erasure={shown} result={shown.result} /> : null}
      </div>
      <PendingList
        items={data.pending}
        onDecided={(erasure) => {
          setShown(erasure.state === "confirmed" ? erasure : null);
          setNotice(erasure.state === "cancelled" ? { tone: "success", text: t("cancelled", { document: erasure.documentMasked }) } : null);
        }}
      />
      <RecentList items={data.recent} />
    </TitledSection>
  );
}

/** A failed call in the member's words; `conflict` means something different when asking and when deciding. */
function useErrorText(): (error: unknown, conflict: "requestConflict" | "decisionConflict") => string {
  const t = useTranslations("erasure.errors");
  return (error, conflict) => {
    const code = refusalOf(error)?.code;
    if (!code) return t("unknown");
    if (code === "conflict") return t(conflict);
    return t.has(code) ? t(code) : t("unknown");
  };
}

function RequestForm({ onAsked }: { onAsked: (erasure: ErasureDto) => void }) {
  const t = useTranslations("erasure");
  const errorText = useErrorText();
  const ask = useRefreshingRequest(postErasure);
  const id = useId();
  const [cpf, setCpf] = useState("");
  const [reason, setReason] = useState("");
  const [cpfError, setCpfError] = useState<CpfFieldProblem | undefined>();
  const [reasonError, setReasonError] = useState<ErasureReasonProblem | "server" | undefined>();
  const reasonId = `${id}-reason`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (ask.isPending) return;
    const cpfIssue = cpfProblem(cpf);
    const reasonIssue = erasureReasonProblem(reason);
    setCpfError(cpfIssue);
    setReasonError(reasonIssue);
    if (focusFirstProblem({ [`${id}-cpf`]: cpfIssue, [reasonId]: reasonIssue })) return;
    ask.mutate(
      { cpf, reason: reason.trim() },
      {
        onSuccess: ({ erasure }) => {
          setCpf("");
          setReason("");
          onAsked(erasure);
        },
        onError: (error) => {
          const refusal = refusalOf(error);
          if (refusal?.code !== "validation") return;
          if (refusal.fields.includes("cpf")) setCpfError("server");
          if (refusal.fields.includes("reason")) setReasonError("server");
        },
      },
    );
  }

  const failed = ask.error && refusalOf(ask.error)?.code !== "validation";
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {t("form.heading")}
      </h3>
      <CpfField
        id={`${id}-cpf`}
        label={t("form.cpf")}
        hint={t("form.cpfHint")}
        problem={cpfError}
        messages={(problem) => t(`cpfProblems.${problem}`)}
        value={cpf}
        onValueChange={(value) => {
          setCpf(value);
          setCpfError(undefined);
        }}
        disabled={ask.isPending}
      />
      <div>
        <label htmlFor={reasonId} className="block text-sm font-medium text-slate-800">
          {t("form.reason")}
        </label>
        <textarea
          id={reasonId}
          name="reason"
          required
          rows={3}
          maxLength={MAX_ERASURE_REASON_LENGTH + 100}
          value={reason}
          disabled={ask.isPending}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={[`${reasonId}-hint`, reasonError ? `${reasonId}-error` : null].filter(Boolean).join(" ")}
          onChange={(event) => {
            setReason(event.target.value);
            setReasonError(undefined);
          }}
          className={`mt-1 block w-full max-w-2xl rounded-md border px-3 py-2 text-sm shadow-sm ${reasonError ? "border-red-600" : "border-slate-300"} focus:border-brand-600`}
        />
        <p id={`${reasonId}-hint`} className="mt-1 max-w-2xl text-xs text-slate-600">
          {t("form.reasonHint")}
        </p>
        {reasonError ? (
          <p id={`${reasonId}-error`} className="mt-1 text-sm text-red-700">
            {t(`reasonProblems.${reasonError}`, { max: MAX_ERASURE_REASON_LENGTH })}
          </p>
        ) : null}
      </div>
      <div aria-live="assertive">{failed ? <Alert tone="error">{errorText(ask.error, "requestConflict")}</Alert> : null}</div>
      <Button type="submit" pending={ask.isPending}>
        {t("form.submit")}
      </Button>
    </form>
  );
}

/** One of the panel's lists, pending or recent: its heading, then the sentence that says it is empty or the list. */
function ErasureList({
  kind,
  items,
  renderItem,
  children,
}: {
  kind: "pending" | "recent";
  items: ErasureDto[];
  renderItem: (erasure: ErasureDto) => ReactNode;
  children?: ReactNode;
}) {
  const t = useTranslations("erasure");
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <h3 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {t(`${kind}.heading`)}
      </h3>
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{t(`${kind}.empty`)}</p>
      ) : (
        <ul aria-label={t(`${kind}.listLabel`)} className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {items.map(renderItem)}
        </ul>
      )}
      {children}
    </section>
  );
}

function PendingList({ items, onDecided }: { items: ErasureDto[]; onDecided: (erasure: ErasureDto) => void }) {
  const t = useTranslations("erasure");
  const format = useFormatter();
  const errorText = useErrorText();
  const decide = useRefreshingRequest(postErasureDecision);
  const id = useId();
  const [asked, setAsked] = useState<{ erasure: ErasureDto; decision: "confirm" | "cancel" } | null>(null);
  const when = (iso: string) => format.dateTime(new Date(iso), DATE_TIME_FORMAT);
  const dialog = asked?.decision === "cancel" ? "cancelDialog" : "confirmDialog";

  return (
    <ErasureList
      kind="pending"
      items={items}
      renderItem={(erasure) => (
        <li key={erasure.id} className="space-y-3 p-4" data-testid="erasure-pending">
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm text-slate-700">
            <dt className="text-slate-500">{t("pending.document")}</dt>
            <dd className="font-mono">{erasure.documentMasked}</dd>
            <dt className="text-slate-500">{t("pending.reason")}</dt>
            <dd className="break-words whitespace-pre-line">{erasure.reason}</dd>
            <dt className="text-slate-500">{t("pending.requestedBy")}</dt>
            <dd className="break-all">{erasure.requestedBy.name || erasure.requestedBy.email}</dd>
            <dt className="text-slate-500">{t("pending.requestedAt")}</dt>
            <dd>{when(erasure.requestedAt)}</dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="danger"
              disabled={erasure.ownRequest}
              aria-label={t("pending.confirmLabel", { document: erasure.documentMasked })}
              aria-describedby={erasure.ownRequest ? `${id}-${erasure.id}-own` : undefined}
              onClick={() => {
                decide.reset();
                setAsked({ erasure, decision: "confirm" });
              }}
            >
              {t("pending.confirm")}
            </Button>
            <Button
              variant="secondary"
              aria-label={t("pending.cancelLabel", { document: erasure.documentMasked })}
              onClick={() => {
                decide.reset();
                setAsked({ erasure, decision: "cancel" });
              }}
            >
              {t("pending.cancel")}
            </Button>
          </div>
          {erasure.ownRequest ? (
            <p id={`${id}-${erasure.id}-own`} className="text-sm text-slate-600">
              {t("pending.ownRequest")}
            </p>
          ) : null}
        </li>
      )}
    >
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => (open ? undefined : setAsked(null))}
        title={t(`${dialog}.title`)}
        description={t(`${dialog}.body`, { document: asked?.erasure.documentMasked ?? "" })}
        confirmLabel={t(`${dialog}.confirm`)}
        cancelLabel={t(`${dialog}.back`)}
        tone={asked?.decision === "cancel" ? "primary" : "danger"}
        pending={decide.isPending}
        error={decide.error ? errorText(decide.error, "decisionConflict") : null}
        onConfirm={() => {
          if (!asked) return;
          decide.mutate(
            { id: asked.erasure.id, decision: asked.decision },
            {
              onSuccess: ({ erasure }) => {
                setAsked(null);
                onDecided(erasure);
              },
            },
          );
        }}
      />
    </ErasureList>
  );
}

function ResultView({ erasure, result }: { erasure: ErasureDto; result: ErasureResult }) {
  const t = useTranslations("erasure.result");
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="space-y-3 rounded-xl border border-emerald-200 bg-emerald-50 p-5 text-sm text-slate-800"
    >
      <h3 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        {t("heading", { document: erasure.documentMasked })}
      </h3>
      <p>{t("summary", { verifications: result.verifications, cases: result.cases })}</p>
      <ResultLists result={result} />
    </section>
  );
}

function ResultLists({ result }: { result: ErasureResult }) {
  const t = useTranslations("erasure.result");
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div>
        <h4 className="font-semibold text-slate-900">{t("erasedHeading")}</h4>
        <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1">
          {ERASED_KINDS.map((kind) => (
            <div key={kind} className="contents">
              <dt>{t(`erased.${kind}`)}</dt>
              {/* A kind added since (person_names) is absent from an older erasure's result: it erased none. */}
              <dd className="text-right font-mono tabular-nums">{kind in result.erased ? result.erased[kind] : "—"}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div>
        <h4 className="font-semibold text-slate-900">{t("keptHeading")}</h4>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          {result.kept.map((entry) => (
            <li key={entry.kind}>{t(`kept.${entry.kind}`, { count: entry.count ?? 0 })}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function RecentList({ items }: { items: ErasureDto[] }) {
  const t = useTranslations("erasure");
  const format = useFormatter();
  return (
    <ErasureList
      kind="recent"
      items={items}
      renderItem={(erasure) => (
        <li key={erasure.id} className="space-y-2 p-4 text-sm text-slate-700" data-testid="erasure-recent">
          <p>
            <span className="font-mono text-slate-900">{erasure.documentMasked}</span>
            {" — "}
            {t("recent.decided", {
              state: t(`recent.state.${erasure.state === "confirmed" ? "confirmed" : "cancelled"}`),
              name: erasure.decidedBy?.name || erasure.decidedBy?.email || "—",
              date: erasure.decidedAt ? format.dateTime(new Date(erasure.decidedAt), DATE_TIME_FORMAT) : "—",
            })}
          </p>
          <p className="break-words whitespace-pre-line text-slate-600">{erasure.reason}</p>
          {erasure.result ? (
            <details>
              <summary className="cursor-pointer font-medium text-brand-700">{t("recent.showResult")}</summary>
              <div className="mt-2">
                <ResultLists result={erasure.result} />
              </div>
            </details>
          ) : null}
        </li>
      )}
    />
  );
}
