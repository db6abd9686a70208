"use client";

import { useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";
import type { CasePriority } from "@/lib/cases/priority";
import { stageOf } from "@/lib/cases/queue-rules";

export function FlagBadges({ flags }: { flags: string[] }) {
  const t = useTranslations("cases.flags");
  if (flags.length === 0) return <span className="text-slate-500">—</span>;
  return (
    <span className="flex flex-wrap gap-1">
      {flags.map((flag) => (
        <Badge key={flag} tone={flag === "restrictive_list" || flag === "pep" ? "danger" : "warning"}>
          {t.has(flag) ? t(flag) : flag}
        </Badge>
      ))}
    </span>
  );
}

/** A priority's reasons in words, most weighty first: "PEP · overdue 3 h". `lead`: said first (why the case is here). */
function usePriorityText() {
  const t = useTranslations("cases.priority");
  const flag = useTranslations("cases.flags");
  return (priority: CasePriority, lead: string[] = []): string => {
    const words = priority.reasons.map((reason) => {
      switch (reason.kind) {
        case "flag":
          return flag.has(reason.flag) ? flag(reason.flag) : reason.flag;
        case "overdue":
          return reason.hours < 48 ? t("overdueHours", { hours: reason.hours }) : t("overdueDays", { days: Math.floor(reason.hours / 24) });
        case "due":
          return t("dueHours", { hours: reason.hours });
        case "reverification":
          return t("reverification");
      }
    });
    const all = [...lead, ...words];
    return all.length > 0 ? all.join(" · ") : t("none");
  };
}

/** The priority as its reasons, toned by its level ("High priority" said first to assistive technology). */
export function PriorityBadge({ priority, lead }: { priority: CasePriority; lead?: string[] }) {
  const t = useTranslations("cases.priority");
  const text = usePriorityText()(priority, lead);
  const level = priority.level;
  return (
    <Badge tone={level === "high" ? "danger" : level === "medium" ? "warning" : "neutral"} className="max-w-full">
      <span className="sr-only">{t("label", { level: t(level) })}: </span>
      <span className="md:truncate" title={text}>
        {text}
      </span>
    </Badge>
  );
}

/** The case's stage in words: decided here (awaiting the provider), escalated, waiting for confirmation… */
export function StateBadge({
  status,
  outcomeState,
  recommendation = null,
  closedReason = null,
}: {
  status: "open" | "closed";
  outcomeState: string | null;
  recommendation?: string | null;
  /** A case closed because the person's flow expired says so instead of plain "Closed". */
  closedReason?: string | null;
}) {
  const t = useTranslations("cases.state");
  const stage = stageOf({ status, outcomeState, recommendation });
  const closed = closedReason === "expired" ? "expired" : "closed";
  const key = stage === "closed" ? closed : stage === "decided" || stage === "escalated" ? stage : (outcomeState ?? "open");
  return (
    <Badge tone={key === "pending_confirmation" || key === "escalated" ? "info" : key === "decided" ? "success" : "neutral"}>
      {t(key)}
    </Badge>
  );
}

/** The queue's flag: this case's person (same CPF hash) has another open case. */
export function OtherOpenCaseBadge() {
  const t = useTranslations("cases.samePerson");
  return (
    <span title={t("otherOpenCaseHint")} data-testid="other-open-case">
      <Badge tone="info">{t("otherOpenCase")}</Badge>
      <span className="sr-only"> · {t("otherOpenCaseHint")}</span>
    </span>
  );
}
