"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type Dispatch, type FormEvent, type ReactNode, type SetStateAction } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import {
  COAF_GROUNDS,
  COAF_MAX_OPERATIONS,
  COAF_SUMMARY_MAX_CHARS,
  operationAmount,
  operationProblems,
  type CoafGround,
  type OperationDraft,
  type OperationField,
} from "@/lib/cases/coaf";
import { useOpenCoafReport } from "@/lib/cases/coaf-hooks";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * The dialog of "Report to COAF" (./coaf-report-action.tsx) and its form: the summary, the grounds (at least one),
 * optional operations (date, amount, description; added and removed), sent as POST
 * /api/cases/{publicId}/suspicious-activity. Each bad field is named beside it, by the form's own checks before
 * anything is sent and by the server's field errors after. Its own module, loaded by useLazyDialog
 * (components/ui/dialog.tsx) when the page is idle or the button is reached: the case page's first load does not
 * carry it.
 */

type Problems = Partial<Record<string, "summary" | "grounds" | OperationField | "server">>;

const EMPTY_OPERATION: OperationDraft = { date: "", amount: "", description: "" };

/** The dialog, loaded by "Report to COAF" (useLazyDialog); each opening mounts the form afresh. */
export function CoafReportDialog({
  publicId,
  open,
  onOpenChange,
  onOpened,
}: {
  publicId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onOpened: (id: string) => void;
}) {
  const t = useTranslations("coaf.report");
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t("title")} description={t("description")}>
      {open ? <ReportForm publicId={publicId} onOpened={onOpened} /> : null}
    </Dialog>
  );
}

function ReportForm({ publicId, onOpened }: { publicId: string; onOpened: (id: string) => void }) {
  const t = useTranslations("coaf.report");
  const tGrounds = useTranslations("coaf.grounds");
  const send = useOpenCoafReport(publicId);
  const id = useId();
  const [summary, setSummary] = useState("");
  const [grounds, setGrounds] = useState<CoafGround[]>([]);
  const [operations, setOperations] = useState<OperationDraft[]>([]);
  const [problems, setProblems] = useState<Problems>({});
  const fieldId = (name: string) => `${id}-${name.replace(/\./g, "-")}`;

  function localProblems(): Problems {
    const found: Problems = {};
    if (summary.trim() === "") found.summary = "summary";
    if (grounds.length === 0) found.grounds = "grounds";
    operations.forEach((operation, index) => {
      for (const field of Object.keys(operationProblems(operation)) as OperationField[]) found[`operations.${index}.${field}`] = field;
    });
    return found;
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending) return;
    const found = localProblems();
    setProblems(found);
    if (focusFirstProblem(Object.fromEntries(Object.entries(found).map(([name, problem]) => [fieldId(name), problem])))) return;
    send.mutate(
      {
        summary,
        grounds,
        operations: operations.map((operation) => ({ ...operation, amount: operationAmount(operation.amount) })),
      },
      {
        onSuccess: ({ report }) => onOpened(report.id),
        onError: (error) => {
          if (!(error instanceof ApiRequestError) || error.code !== "validation") return;
          // The server's field errors: `summary`, `grounds`, `grounds.0`, `operations.1.amount`…
          const named: Problems = {};
          for (const field of error.fields) named[/^grounds/.test(field) ? "grounds" : field] = "server";
          setProblems(named);
          focusFirstProblem(Object.fromEntries(Object.keys(named).map((name) => [fieldId(name), "server"])));
        },
      },
    );
  }

  const problemText = (name: string) => {
    const problem = problems[name];
    return problem ? t(`problems.${problem}`) : null;
  };
  const describedBy = (name: string, hint?: string) =>
    [hint, problems[name] ? `${fieldId(name)}-error` : null].filter(Boolean).join(" ") || undefined;
  const errorLine = (name: string) =>
    problems[name] ? (
      <p id={`${fieldId(name)}-error`} className="mt-1 text-sm text-red-700">
        {problemText(name)}
      </p>
    ) : null;
  const clear = (name: string) => setProblems((current) => ({ ...current, [name]: undefined }));
  const failed = send.error && !(send.error instanceof ApiRequestError && send.error.code === "validation");
  const failure =
    send.error instanceof ApiRequestError && (send.error.code === "not_found" || send.error.code === "forbidden")
      ? send.error.code
      : "unknown";

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <div>
        <label htmlFor={fieldId("summary")} className="block text-sm font-medium text-slate-800">
          {t("summary")}
        </label>
        <textarea
          id={fieldId("summary")}
          name="summary"
          rows={5}
          maxLength={COAF_SUMMARY_MAX_CHARS}
          value={summary}
          disabled={send.isPending}
          aria-invalid={problems.summary ? true : undefined}
          aria-describedby={describedBy("summary", `${fieldId("summary")}-hint`)}
          onChange={(event) => {
            setSummary(event.target.value);
            clear("summary");
          }}
          className={`mt-1 block w-full rounded-md border px-3 py-2 text-sm shadow-sm ${problems.summary ? "border-red-600" : "border-slate-300"} focus:border-brand-600`}
        />
        <p id={`${fieldId("summary")}-hint`} className="mt-1 text-xs text-slate-600">
          {t("summaryHint", { max: COAF_SUMMARY_MAX_CHARS })}
        </p>
        {errorLine("summary")}
      </div>
      <fieldset
        id={fieldId("grounds")}
        tabIndex={-1}
        aria-invalid={problems.grounds ? true : undefined}
        aria-describedby={describedBy("grounds")}
        className="space-y-1"
      >
        <legend className="text-sm font-medium text-slate-800">{t("grounds")}</legend>
        {COAF_GROUNDS.map((ground) => (
          <label key={ground} className="flex items-start gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name="grounds"
              value={ground}
              className="mt-0.5"
              checked={grounds.includes(ground)}
              disabled={send.isPending}
              onChange={(event) => {
                setGrounds((current) => (event.target.checked ? [...current, ground] : current.filter((item) => item !== ground)));
                clear("grounds");
              }}
            />
            <span className="min-w-0 break-words">{tGrounds(ground)}</span>
          </label>
        ))}
        {errorLine("grounds")}
      </fieldset>
      <OperationsFieldset
        operations={operations}
        setOperations={setOperations}
        problems={problems}
        setProblems={setProblems}
        pending={send.isPending}
        fieldId={fieldId}
        errorLine={errorLine}
        describedBy={describedBy}
      />
      <div aria-live="assertive">{failed ? <Alert tone="error">{t(`errors.${failure}`)}</Alert> : null}</div>
      <DialogFormActions cancelLabel={t("cancel")} submitLabel={t("submit")} pending={send.isPending} />
    </form>
  );
}

/** The optional operations: each a row of date, amount and description, added and removed. */
function OperationsFieldset({
  operations,
  setOperations,
  problems,
  setProblems,
  pending,
  fieldId,
  errorLine,
  describedBy,
}: {
  operations: OperationDraft[];
  setOperations: Dispatch<SetStateAction<OperationDraft[]>>;
  problems: Problems;
  setProblems: Dispatch<SetStateAction<Problems>>;
  pending: boolean;
  fieldId: (name: string) => string;
  errorLine: (name: string) => ReactNode;
  describedBy: (name: string) => string | undefined;
}) {
  const t = useTranslations("coaf.report");
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-800">{t("operations")}</legend>
      {operations.length === 0 ? <p className="text-xs text-slate-600">{t("noOperations")}</p> : null}
      {operations.map((operation, index) => {
        const name = (field: OperationField) => `operations.${index}.${field}`;
        const update = (field: OperationField, value: string) => {
          setOperations((current) => current.map((item, at) => (at === index ? { ...item, [field]: value } : item)));
          setProblems((current) => ({ ...current, [name(field)]: undefined }));
        };
        const input = (field: OperationField, props: { type: string; inputMode?: "decimal"; label: string }) => (
          <div className="min-w-0">
            <label htmlFor={fieldId(name(field))} className="block text-xs font-medium text-slate-700">
              {props.label}
            </label>
            <input
              id={fieldId(name(field))}
              type={props.type}
              inputMode={props.inputMode}
              value={operation[field]}
              disabled={pending}
              aria-invalid={problems[name(field)] ? true : undefined}
              aria-describedby={describedBy(name(field))}
              onChange={(event) => update(field, event.target.value)}
              className={`mt-1 block w-full min-w-0 rounded-md border px-2 py-1.5 text-sm shadow-sm ${problems[name(field)] ? "border-red-600" : "border-slate-300"}`}
            />
            {errorLine(name(field))}
          </div>
        );
        return (
          <div
            key={index}
            role="group"
            aria-label={t("operation", { number: index + 1 })}
            className="rounded-md border border-slate-200 p-3"
          >
            <div className="grid gap-2 sm:grid-cols-[10rem_8rem_minmax(0,1fr)]">
              {input("date", { type: "date", label: t("date") })}
              {input("amount", { type: "text", inputMode: "decimal", label: t("amount") })}
              {input("description", { type: "text", label: t("operationDescription") })}
            </div>
            <Button
              variant="ghost"
              className="mt-2 px-2 py-1 text-xs"
              disabled={pending}
              onClick={() => {
                setOperations((current) => current.filter((_, at) => at !== index));
                setProblems({});
              }}
            >
              {t("removeOperation", { number: index + 1 })}
            </Button>
          </div>
        );
      })}
      {operations.length < COAF_MAX_OPERATIONS ? (
        <Button variant="secondary" disabled={pending} onClick={() => setOperations((current) => [...current, EMPTY_OPERATION])}>
          {t("addOperation")}
        </Button>
      ) : null}
    </fieldset>
  );
}
