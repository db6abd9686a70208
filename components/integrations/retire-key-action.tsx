"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { postRetireIntegrationKey } from "@/lib/integrations/requests";
import { MAX_RETIRE_REASON_LENGTH, retireReasonProblem, type RetireReasonProblem } from "@/lib/integrations/rules";
import type { RetiredIntegrationResponse } from "@/lib/integrations/types";
import type { IntegrationKeySummary } from "@/lib/integrations/validation";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";
import type { RequestState } from "@/lib/shared/api-client/use-request";

/*
 * A key's retire button in its row of the server-drawn table, and the dialog it opens. The dialog asks why before
 * a key is marked retired, and says what retiring does not do: the dashboard cannot revoke the key at the service,
 * so it keeps working until the admin revokes it in the provider's own dashboard. The route asks for the step-up as
 * creation does (the API client opens the step-up dialog and sends the request again). The dialog stays open while
 * the request runs and after a refusal, showing why. Once retired, the page is drawn again (the row then says who
 * retired it, when and why) and the button's place says it is done, focused, so keyboard focus is not lost.
 */
export function RetireKeyAction({ entry }: { entry: IntegrationKeySummary }) {
  const t = useTranslations("integrations.retire");
  // Drawn again once settled: a 409 means another admin retired it meanwhile, which the row should show.
  const mutation = useRefreshingRequest(postRetireIntegrationKey);
  const pending = mutation.isPending;
  const [open, setOpen] = useState(false);
  const [retired, setRetired] = useState<IntegrationKeySummary | null>(null);
  const done = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (retired) done.current?.focus();
  }, [retired]);

  function onOpenChange(next: boolean) {
    // Closing while the request is in flight would hide its outcome: wait for it.
    if (!next && pending) return;
    if (!next) mutation.reset();
    setOpen(next);
  }

  if (retired)
    return (
      <p ref={done} role="status" tabIndex={-1} className="max-w-56 text-sm text-emerald-900">
        <span className="font-medium">{t("done", { label: retired.label })}</span>
        <span className="block text-xs text-slate-700">{t("doneBody")}</span>
      </p>
    );
  if (entry.state !== "active") return null;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("title", { label: entry.label })}
      description={t("description", { domain: entry.domain })}
      trigger={
        <Button variant="secondary" className="px-3 py-1" aria-label={t("rowLabel", { label: entry.label, domain: entry.domain })}>
          {t("open")}
        </Button>
      }
    >
      {/* Mounted anew at each opening, so each starts from an empty reason. */}
      {open ? (
        <RetireForm
          target={entry}
          mutation={mutation}
          onRetired={(key) => {
            setOpen(false);
            setRetired(key);
          }}
        />
      ) : null}
    </Dialog>
  );
}

function RetireForm({
  target,
  mutation,
  onRetired,
}: {
  target: IntegrationKeySummary;
  mutation: RequestState<Parameters<typeof postRetireIntegrationKey>[0], RetiredIntegrationResponse>;
  onRetired: (key: IntegrationKeySummary) => void;
}) {
  const t = useTranslations("integrations.retire");
  const errorMessage = useApiErrorMessage();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<RetireReasonProblem | "server" | undefined>();
  const [failure, setFailure] = useState<string | undefined>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const found = retireReasonProblem(reason);
    setProblem(found);
    if (focusFirstProblem({ "retire-reason": found })) return;
    setFailure(undefined);
    mutation.mutate(
      { upstreamId: target.upstreamId, reason: reason.trim() },
      {
        onSuccess: ({ key }) => onRetired(key),
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === "validation" && error.fields.includes("reason")) setProblem("server");
          if (error instanceof ApiRequestError && error.code === "conflict") return setFailure(t("already"));
          if (error instanceof ApiRequestError && error.code === "not_found") return setFailure(t("notFound"));
          setFailure(t("failed", { message: errorMessage(error) }));
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <Alert tone="warning" title={t("revokeTitle")}>
        {t("revokeBody")}
      </Alert>
      <Field
        id="retire-reason"
        name="reason"
        label={t("reason")}
        hint={t("reasonHint")}
        value={reason}
        required
        autoComplete="off"
        disabled={mutation.isPending}
        maxLength={MAX_RETIRE_REASON_LENGTH + 20}
        onChange={(event) => {
          setReason(event.target.value);
          setProblem(undefined);
        }}
        error={problem ? t(`errors.${problem}`, { max: MAX_RETIRE_REASON_LENGTH }) : undefined}
      />
      <div aria-live="assertive">{failure ? <Alert tone="error">{failure}</Alert> : null}</div>
      <DialogFormActions
        cancelLabel={t("cancel")}
        submitLabel={mutation.isPending ? t("submitting") : t("submit")}
        tone="danger"
        pending={mutation.isPending}
        cancelDisabled={mutation.isPending}
      />
    </form>
  );
}
