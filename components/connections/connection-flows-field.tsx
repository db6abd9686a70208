"use client";

import { useTranslations } from "next-intl";

import { MAX_FLOWS, textOfFlows, type ConnectionFlow } from "@/lib/connections/flows";

/*
 * The connection's flows as the admin types them, one a line: the flow's id at the service, then its label
 * (lib/connections/flows.ts reads the text). The first is the creation dialog's default.
 */
export function ConnectionFlowsField({ prefix, flows, error }: { prefix: string; flows: readonly ConnectionFlow[]; error?: string }) {
  const t = useTranslations("connections.fields");
  const id = `${prefix}-flows`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {t("flows")}
      </label>
      <textarea
        id={id}
        name="flows"
        rows={3}
        spellCheck={false}
        defaultValue={textOfFlows(flows)}
        placeholder={t("flowsPlaceholder")}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ")}
        className={`mt-1 block w-full rounded-md border px-3 py-2 font-mono text-sm ${error ? "border-red-600" : "border-slate-300"}`}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        {t("flowsHint", { most: MAX_FLOWS })}
      </p>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
