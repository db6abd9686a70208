"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";

import type { ConnectionFlow } from "@/lib/connections/flows";
import { useConnections } from "@/lib/connections/hooks";

/** The current connection's flows (empty while they load, or when the admin named none: the field is then free text). */
export function useConnectionFlows(): ConnectionFlow[] {
  const { data } = useConnections();
  return data?.connections.find((connection) => connection.current)?.flows ?? [];
}

/** The flow of a new verification, chosen among the connection's; an empty value shows (and sends) the first. */
export function FlowSelect({
  flows,
  value,
  error,
  onChange,
}: {
  flows: ConnectionFlow[];
  value: string;
  error: string | undefined;
  onChange: (flowPublicId: string) => void;
}) {
  const t = useTranslations("verifications.create");
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {t("flowChoice")}
      </label>
      <select
        id={id}
        name="flowPublicId"
        value={value || flows[0]!.id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-hint`, error ? `${id}-error` : ""].filter(Boolean).join(" ")}
        onChange={(event) => onChange(event.target.value)}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm"
      >
        {flows.map((flow) => (
          <option key={flow.id} value={flow.id}>
            {flow.label === flow.id ? flow.id : `${flow.label} (${flow.id})`}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        {t("flowChoiceHint")}
      </p>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
