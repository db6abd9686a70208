"use client";

import { useTranslations } from "next-intl";
import { useRef, useState, type FormEvent } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { focusFirstProblem } from "@/components/ui/focus-first-problem";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { postIntegration } from "@/lib/integrations/requests";
import { labelProblem, MAX_LABEL_LENGTH, parseDomain, type DomainProblem, type LabelProblem } from "@/lib/integrations/rules";
import type { CreatedIntegrationResponse } from "@/lib/integrations/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

import { CreatedKeyPanel } from "./created-key-panel";

type Warning = "unknown" | "duplicate";

/**
 * Creating a key in a Radix dialog. Duplicate submits never create two keys silently: the form is
 * disabled while a request is in flight (and a second click in the same instant is ignored), and after
 * an unknown outcome (timeout, unavailable) or the route's duplicate refusal, sending again needs an
 * explicit "send again anyway", which the route also requires.
 */
export function CreateKeyDialog() {
  const t = useTranslations("integrations");
  const errorMessage = useApiErrorMessage();
  // The list is drawn again once settled, not only on success: after an unknown outcome it may hold the key after all.
  const mutation = useRefreshingRequest(postIntegration);
  const inFlight = useRef(false);
  const [open, setOpen] = useState(false);
  const [domain, setDomain] = useState("");
  const [label, setLabel] = useState("");
  const [domainError, setDomainError] = useState<DomainProblem | "server" | undefined>();
  const [labelError, setLabelError] = useState<LabelProblem | "server" | undefined>();
  const [warning, setWarning] = useState<Warning | undefined>();
  const [created, setCreated] = useState<CreatedIntegrationResponse | undefined>();
  const [failure, setFailure] = useState<string | undefined>();

  const preview = parseDomain(domain);
  const pending = mutation.isPending;

  function resetForm() {
    setDomain("");
    setLabel("");
    setDomainError(undefined);
    setLabelError(undefined);
    setWarning(undefined);
    setCreated(undefined);
    setFailure(undefined);
    mutation.reset();
  }

  function onOpenChange(next: boolean) {
    // Closing while the request is in flight would hide its outcome: wait for it.
    if (!next && pending) return;
    setOpen(next);
    if (!next) resetForm();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current || pending) return;
    const domainIssue = "problem" in preview ? preview.problem : undefined;
    const labelIssue = labelProblem(label);
    setDomainError(domainIssue);
    setLabelError(labelIssue);
    if (focusFirstProblem({ "integration-domain": domainIssue, "integration-label": labelIssue })) return;
    inFlight.current = true;
    setFailure(undefined);
    mutation.mutate(
      { domain: domain.trim(), label: label.trim(), ...(warning ? { confirmDuplicate: true } : {}) },
      {
        onSettled: () => {
          inFlight.current = false;
        },
        onSuccess: (result) => {
          setWarning(undefined);
          setCreated(result);
          // Focus (and select) the key, ready to copy.
          setTimeout(() => document.getElementById("created-key-value")?.focus(), 0);
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.code === "conflict") return setWarning("duplicate");
          if (error instanceof ApiRequestError && error.outcomeUnknown) return setWarning("unknown");
          if (error instanceof ApiRequestError && (error.code === "validation" || error.code === "upstream_validation")) {
            if (error.fields.includes("domain")) setDomainError("server");
            if (error.fields.includes("label")) setLabelError("server");
          }
          setFailure(errorMessage(error));
        },
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={created ? t("created.title") : t("create.title")}
      description={created ? undefined : t("create.description")}
      trigger={<Button>{t("create.open")}</Button>}
    >
      {created ? (
        <div className="space-y-4">
          <CreatedKeyPanel result={created} showHeading={false} keyInputId="created-key-value" />
          <div className="flex justify-end">
            <Button onClick={() => onOpenChange(false)}>{t("created.done")}</Button>
          </div>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="space-y-4">
          <fieldset disabled={pending} className="space-y-4">
            <legend className="sr-only">{t("create.title")}</legend>
            <Field
              id="integration-domain"
              name="domain"
              label={t("create.domain")}
              hint={"host" in preview ? t("create.domainPreview", { host: preview.host }) : t("create.domainHint")}
              value={domain}
              required
              autoComplete="off"
              spellCheck={false}
              inputMode="url"
              onChange={(event) => {
                setDomain(event.target.value);
                setDomainError(undefined);
                setWarning(undefined);
              }}
              error={domainError ? t(`errors.domain.${domainError}`) : undefined}
            />
            <Field
              id="integration-label"
              name="label"
              label={t("create.label")}
              hint={t("create.labelHint")}
              value={label}
              required
              autoComplete="off"
              maxLength={MAX_LABEL_LENGTH + 20}
              onChange={(event) => {
                setLabel(event.target.value);
                setLabelError(undefined);
                setWarning(undefined);
              }}
              error={labelError ? t(`errors.label.${labelError}`, { max: MAX_LABEL_LENGTH }) : undefined}
            />
          </fieldset>
          {warning ? (
            <Alert tone="warning" title={t(warning === "unknown" ? "create.unknownTitle" : "create.duplicateTitle")}>
              {t(warning === "unknown" ? "create.unknownBody" : "create.duplicateBody")}
            </Alert>
          ) : null}
          {failure ? (
            <Alert tone="error" title={t("create.failed")}>
              {failure}
            </Alert>
          ) : null}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" disabled={pending} onClick={() => onOpenChange(false)}>
              {t("create.cancel")}
            </Button>
            <Button type="submit" pending={pending} variant={warning ? "danger" : "primary"}>
              {pending ? t("create.submitting") : warning ? t("create.sendAnyway") : t("create.submit")}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
