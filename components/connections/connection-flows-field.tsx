"use client";

import { useTranslations } from "next-intl";

import { TextAreaField } from "@/components/ui/field";
import { MAX_FLOWS, textOfFlows, type ConnectionFlow } from "@/lib/connections/flows";

/*
 * The connection's flows as the admin types them, one a line: the flow's id at the service, then its label
 * (lib/connections/flows.ts reads the text). The first is the creation dialog's default.
 */
export function ConnectionFlowsField({ prefix, flows, error }: { prefix: string; flows: readonly ConnectionFlow[]; error?: string }) {
  const t = useTranslations("connections.fields");
  return (
    <TextAreaField
      id={`${prefix}-flows`}
      name="flows"
      label={t("flows")}
      hint={t("flowsHint", { most: MAX_FLOWS })}
      error={error}
      rows={3}
      spellCheck={false}
      defaultValue={textOfFlows(flows)}
      placeholder={t("flowsPlaceholder")}
      boxClassName="font-mono"
    />
  );
}
