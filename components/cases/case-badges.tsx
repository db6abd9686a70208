"use client";

import { useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";
import { priorityLevel, stageOf } from "@/lib/cases/rules";

/** `oneLine`: never wrapped from md up (a queue row stays one line tall). */
export function FlagBadges({ flags, oneLine = false }: { flags: string[]; oneLine?: boolean }) {
  const t = useTranslations("cases.flags");
  if (flags.length === 0) return <span className="text-slate-500">—</span>;
  return (
    <span className={`flex flex-wrap gap-1 ${oneLine ? "md:flex-nowrap" : ""}`}>
      {flags.map((flag) => (
        <Badge key={flag} tone={flag === "restrictive_list" || flag === "pep" ? "danger" : "warning"}>
          {t.has(flag) ? t(flag) : flag}
        </Badge>
      ))}
    </span>
  );
}

export function PriorityBadge({ priority }: { priority: number }) {
  const t = useTranslations("cases.priority");
  const level = priorityLevel(priority);
  return <Badge tone={level === "high" ? "danger" : level === "medium" ? "warning" : "neutral"}>{t(level)}</Badge>;
}

/** The case's stage in words: decided here (awaiting the provider), escalated, waiting for confirmation… */
export function StateBadge({
  status,
  outcomeState,
  recommendation = null,
}: {
  status: "open" | "closed";
  outcomeState: string | null;
  recommendation?: string | null;
}) {
  const t = useTranslations("cases.state");
  const stage = stageOf({ status, outcomeState, recommendation });
  const key = stage === "decided" || stage === "escalated" || stage === "closed" ? stage : (outcomeState ?? "open");
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
