"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { ConnectionFlowsField } from "@/components/connections/connection-flows-field";
import { ConnectionKeyFields } from "@/components/connections/connection-key-fields";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { useApiErrorMessage } from "@/components/ui/use-api-error-message";
import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { flowsOfText, textOfFlows } from "@/lib/connections/flows";
import { addConnection, changeConnection } from "@/lib/connections/requests";
import { ENVIRONMENTS, type ConnectionSummary, type Environment } from "@/lib/connections/types";
import { ApiRequestError } from "@/lib/shared/api-client/api-request";

/*
 * Adding a connection, or changing one (its name, a new key, the key's expiry, its flows). The key is a password field, sent once
 * and never shown again: the list shows its hint (./connection-key-fields.tsx). The service tests a new key before it is kept; a refused key comes
 * back naming the field.
 */

const inputClass = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm";

export function ConnectionFormDialog({ editing }: { editing?: ConnectionSummary }) {
  const t = useTranslations("connections");
  const errorMessage = useApiErrorMessage();
  // The page (and the shell's connection switcher) is drawn again once a request has settled.
  const add = useRefreshingRequest(addConnection);
  const change = useRefreshingRequest(changeConnection);
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<{ message: string; fields: string[] } | null>(null);
  const pending = add.isPending || change.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const onError = (error: unknown) =>
      setProblem({ message: errorMessage(error), fields: error instanceof ApiRequestError ? error.fields : [] });
    const done = { onSuccess: () => setOpen(false), onError };
    setProblem(null);
    const expires = text("coreKeyExpiresAt") ? { coreKeyExpiresAt: text("coreKeyExpiresAt") } : {};
    const flows = flowsOfText(String(form.get("flows") ?? ""));
    if (editing) {
      const key = text("coreApiKey");
      const name = text("name");
      const grace = key && text("graceHours") ? { graceHours: Number(text("graceHours")) } : {};
      const renamed = name !== editing.name ? { name } : {};
      const reflowed = textOfFlows(flows) !== textOfFlows(editing.flows) ? { flows } : {};
      const rotated = key ? { coreApiKey: key, ...grace } : {};
      change.mutate({ id: editing.id, change: { ...renamed, ...rotated, ...expires, ...reflowed } }, done);
      return;
    }
    const partners = text("username")
      ? {
          username: text("username"),
          password: String(form.get("password") ?? ""),
          domain: text("domain"),
          integrationToken: text("integrationToken"),
        }
      : undefined;
    add.mutate(
      {
        name: text("name"),
        environment: text("environment") as Environment,
        ...(text("integration") ? { integration: text("integration") } : {}),
        coreApiKey: text("coreApiKey"),
        ...expires,
        ...(flows.length ? { flows } : {}),
        ...(partners ? { partners } : {}),
      },
      done,
    );
  }

  const fieldError = (field: string) =>
    problem?.fields.some((name) => name === field || name.startsWith(`${field}.`)) ? problem.message : undefined;
  const prefix = editing ? `connection-${editing.id}` : "connection-new";
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        setOpen(next);
        setProblem(null);
      }}
      title={editing ? t("edit.title", { name: editing.name }) : t("add.title")}
      description={editing ? t("edit.description") : t("add.description")}
      trigger={
        editing ? (
          <Button variant="secondary" className="px-3 py-1">
            {t("edit.open")}
            <span className="sr-only"> {editing.name}</span>
          </Button>
        ) : (
          <Button>{t("add.open")}</Button>
        )
      }
    >
      <form noValidate onSubmit={submit} className="space-y-4">
        <fieldset disabled={pending} className="space-y-4">
          <legend className="sr-only">{editing ? t("edit.title", { name: editing.name }) : t("add.title")}</legend>
          <Field
            id={`${prefix}-name`}
            name="name"
            label={t("fields.name")}
            defaultValue={editing?.name}
            required
            error={fieldError("name")}
          />
          {editing ? null : (
            <div>
              <label htmlFor={`${prefix}-environment`} className="block text-sm font-medium text-slate-800">
                {t("fields.environment")}
              </label>
              <select id={`${prefix}-environment`} name="environment" defaultValue="sandbox" className={inputClass}>
                {ENVIRONMENTS.map((environment) => (
                  <option key={environment} value={environment}>
                    {t(`environment.${environment}`)}
                  </option>
                ))}
              </select>
            </div>
          )}
          {editing ? null : (
            <Field id={`${prefix}-integration`} name="integration" label={t("fields.integration")} hint={t("fields.integrationHint")} />
          )}
          <ConnectionKeyFields prefix={prefix} editing={editing} fieldError={fieldError} />
          <ConnectionFlowsField prefix={prefix} flows={editing?.flows ?? []} error={fieldError("flows")} />
          {editing ? null : (
            <details className="rounded-md border border-slate-200 p-3">
              <summary className="cursor-pointer text-sm font-medium text-slate-800">{t("fields.partners")}</summary>
              <div className="mt-3 space-y-3">
                <p className="text-sm text-slate-700">{t("fields.partnersHint")}</p>
                <Field
                  id={`${prefix}-username`}
                  name="username"
                  label={t("fields.username")}
                  autoComplete="off"
                  error={fieldError("partners")}
                />
                <Field id={`${prefix}-password`} name="password" type="password" autoComplete="off" label={t("fields.password")} />
                <Field id={`${prefix}-domain`} name="domain" label={t("fields.domain")} />
                <Field
                  id={`${prefix}-token`}
                  name="integrationToken"
                  type="password"
                  autoComplete="off"
                  label={t("fields.integrationToken")}
                />
              </div>
            </details>
          )}
          {problem ? <Alert tone="error">{problem.message}</Alert> : null}
          <div className="flex justify-end gap-2">
            <Button type="submit" pending={pending}>
              {editing ? t("edit.submit") : t("add.submit")}
            </Button>
          </div>
        </fieldset>
      </form>
    </Dialog>
  );
}
