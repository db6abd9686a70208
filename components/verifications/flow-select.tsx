"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";

import { SelectField } from "@/components/ui/field";
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
    <SelectField
      id={id}
      name="flowPublicId"
      label={t("flowChoice")}
      hint={t("flowChoiceHint")}
      error={error}
      value={value || flows[0]!.id}
      onChange={(event) => onChange(event.target.value)}
    >
      {flows.map((flow) => (
        <option key={flow.id} value={flow.id}>
          {flow.label === flow.id ? flow.id : `${flow.label} (${flow.id})`}
        </option>
      ))}
    </SelectField>
  );
}
