"use client";

import { useFormatter, useTranslations } from "next-intl";
import { useId } from "react";

import { Alert } from "@/components/ui/alert";
import { CopyButton, SecretValue } from "@/components/ui/copy-button";
import { RecordItem, RecordList } from "@/components/ui/record-list";
import type { CreatedIntegrationResponse } from "@/lib/integrations/types";
import { DATE_TIME_SECONDS_FORMAT } from "@/lib/shared/date-format";

/**
 * A key value on screen: the metadata, the value with a copy button, and the warning that it opens every
 * product query and will not be shown again after its reveal window.
 */
export function CreatedKeyPanel({
  result,
  showHeading = true,
  keyInputId: givenKeyInputId,
}: {
  result: CreatedIntegrationResponse;
  /** Off inside the creation dialog, whose own title says it. */
  showHeading?: boolean;
  keyInputId?: string;
}) {
  const t = useTranslations("integrations.created");
  const format = useFormatter();
  const generated = useId();
  const keyInputId = givenKeyInputId ?? `${generated}-key`;
  const { integration } = result;
  const when = (value: string | null) => (value ? format.dateTime(new Date(value), DATE_TIME_SECONDS_FORMAT) : null);
  return (
    <div className="space-y-4">
      {showHeading ? <h3 className="text-base font-semibold text-slate-900">{t("title")}</h3> : null}
      <RecordList>
        <RecordItem label={t("domain")} value={<span data-testid="created-key-domain">{integration.domain}</span>} />
        <RecordItem label={t("label")} value={integration.label} />
        <RecordItem label={t("createdAt")} value={when(integration.createdAt)} />
        <RecordItem label={t("updatedAt")} value={when(integration.updatedAt)} />
        <RecordItem label={t("id")} value={integration.upstreamId === null ? null : String(integration.upstreamId)} />
      </RecordList>
      <div>
        <label htmlFor={keyInputId} className="block text-sm font-medium text-slate-800">
          {t("key")}
        </label>
        <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="flex-1">
            <SecretValue id={keyInputId} value={integration.key} label={t("key")} />
          </div>
          <CopyButton value={integration.key} />
        </div>
      </div>
      <Alert tone="warning" title={t("warningTitle")}>
        {t("warning", { until: format.dateTime(new Date(result.revealUntil), { timeStyle: "short" }) })}
      </Alert>
    </div>
  );
}
