"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import { stageOf } from "@/lib/cases/rules";
import type { CaseDetail } from "@/lib/cases/types";

import type { useCaseClaim } from "./use-case-claim";
import type { Viewer } from "./viewer";

/** Taking an open case (or an escalation) the viewer does not hold, and who holds it when someone does. */
export function CaseClaim({ detail, viewer, claim }: { detail: CaseDetail; viewer: Viewer; claim: ReturnType<typeof useCaseClaim> }) {
  const t = useTranslations("cases.panel");
  const escalated = stageOf(detail) === "escalated";
  const ownEscalation = escalated && detail.outcomeBy?.id === viewer.id;
  if (detail.status !== "open" || (detail.assignee && claim.mine)) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!detail.assignee && ownEscalation ? (
        <p className="text-sm text-slate-700">{t("ownEscalation")}</p>
      ) : claim.offerClaim ? (
        <Button id="case-assign" pending={claim.assign.isPending} onClick={claim.claim}>
          {escalated ? t("takeEscalation") : t("assignToMe")}
        </Button>
      ) : null}
      {detail.assignee ? (
        <p className="text-sm font-medium text-amber-900" role="status">
          {t("takenBy", { email: detail.assignee.email })}
        </p>
      ) : null}
    </div>
  );
}
