import { useFormatter, useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";
import type { IntegrationKeySummary } from "@/lib/integrations/validation";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";

/*
 * A key's state as the dashboard knows it, in words (the badge's colour only repeats them). A retired key says who
 * marked it, when and why, and that it still works at the service until revoked in the provider's own dashboard:
 * the dashboard cannot revoke it (docs/assumptions.md#integration-key-retire).
 */
export function IntegrationKeyState({ entry }: { entry: IntegrationKeySummary }) {
  const t = useTranslations("integrations.state");
  const format = useFormatter();
  if (entry.state === "active") return <Badge tone="success">{t("active")}</Badge>;
  return (
    <span className="flex flex-col items-end gap-1 md:items-start">
      <Badge tone="neutral">{t("retired")}</Badge>
      {entry.retiredAt ? (
        <span className="text-xs text-slate-700">
          {t.rich("retiredBy", {
            at: format.dateTime(new Date(entry.retiredAt), DATE_TIME_FORMAT),
            who: entry.retiredByEmail ?? t("unknownMember"),
            time: (chunks) => <time dateTime={entry.retiredAt ?? undefined}>{chunks}</time>,
          })}
        </span>
      ) : null}
      {entry.retireReason ? (
        <span className="text-xs break-words text-slate-700">{t("reason", { reason: entry.retireReason })}</span>
      ) : null}
      <span className="text-xs text-amber-900">{t("stillValid")}</span>
    </span>
  );
}
