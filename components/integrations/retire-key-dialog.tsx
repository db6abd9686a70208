"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Dialog } from "@/components/ui/dialog";
import { DialogFormActions } from "@/components/ui/dialog-form-actions";
import { Field } from "@/components/ui/field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useRetireIntegrationKey } from "@/lib/integrations/hooks";
import { MAX_RETIRE_REASON_LENGTH, retireReasonProblem, type RetireReasonProblem } from "@/lib/integrations/rules";
import type { IntegrationKeySummary } from "@/lib/integrations/validation";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * Asks why before a key is marked retired, and says what retiring does not do: the dashboard cannot revoke the key at
 * the service, so it keeps working until the admin revokes it in the provider's own dashboard. The route asks for
 * the step-up as creation does (the API client opens the step-up dialog and sends the request again). The dialog
 * stays open while the request runs and after a refusal, showing why.
 */
export function RetireKeyDialog({
  target,
  onOpenChange,
  onRetired,
}: {
  /** The key to retire; null: closed. */
  target: IntegrationKeySummary | null;
  onOpenChange: (open: boolean) => void;
  onRetired: (key: IntegrationKeySummary) => void;
}) {
  const t = useTranslations("integrations.retire");
  const mutation = useRetireIntegrationKey();
  const pending = mutation.isPending;

  function close(next: boolean) {
    // Closing while the request is in flight would hide its outcome: wait for it.
    if (!next && pending) return;
    if (!next) mutation.reset();
    onOpenChange(next);
  }

  return (
    <Dialog
      open={target !== null}
      onOpenChange={close}
      title={t("title", { label: target?.label ?? "" })}
      description={t("description", { domain: target?.domain ?? "" })}
    >
      {/* Keyed by the key, so each opening starts from an empty reason. */}
      {target ? <RetireForm key={target.id} target={target} mutation={mutation} onRetired={onRetired} /> : null}
    </Dialog>
  );
}

function RetireForm({
  target,
  mutation,
  onRetired,
}: {
  target: IntegrationKeySummary;
  mutation: ReturnType<typeof useRetireIntegrationKey>;
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
