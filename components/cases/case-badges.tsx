"use client";

import { useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";
import { priorityLevel } from "@/lib/cases/rules";

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

export function PriorityBadge({ priority }: { priority: number }) {
  const t = useTranslations("cases.priority");
  const level = priorityLevel(priority);
  return <Badge tone={level === "high" ? "danger" : level === "medium" ? "warning" : "neutral"}>{t(level)}</Badge>;
}

export function StateBadge({ status, outcomeState }: { status: "open" | "closed"; outcomeState: string | null }) {
  const t = useTranslations("cases.state");
  const key = status === "closed" ? "closed" : (outcomeState ?? "open");
  return (
    <Badge tone={key === "pending_confirmation" ? "info" : key === "closed" ? "neutral" : key === "confirmed" ? "success" : "neutral"}>
      {t(key)}
    </Badge>
  );
}
