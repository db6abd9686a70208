"use client";

import { useTranslations } from "next-intl";

import { AppLink as Link } from "@/components/ui/app-link";
import { BareButton } from "@/components/ui/button";
import { caseHref, queueHref } from "@/lib/cases/queue-context";
import type { CaseDetail } from "@/lib/cases/types";

import { StateBadge } from "./case-badges";

/** The panel's title (where the focus rests between actions) and its way back, previous, next and shortcuts. */
export function CasePanelHeading({ detail, context, onHelp }: { detail: CaseDetail; context: string; onHelp: () => void }) {
  const t = useTranslations("cases.panel");
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <h2 id="case-panel-title" tabIndex={-1} className="text-base font-semibold text-slate-900 focus:outline-2 focus:outline-brand-700">
        {t("title")}{" "}
        <StateBadge
          status={detail.status}
          outcomeState={detail.outcomeState}
          recommendation={detail.recommendation}
          closedReason={detail.closedReason}
        />
      </h2>
      <nav className="flex gap-2 text-sm" aria-label={t("title")}>
        <Link href={queueHref(context)} className="text-brand-800 underline underline-offset-2" data-testid="case-back">
          {t("backToQueue")}
        </Link>
        {detail.previous ? (
          <Link href={caseHref(detail.previous, context)} rel="prev" className="text-brand-800 underline underline-offset-2">
            ← {t("previous")}
          </Link>
        ) : null}
        {detail.next ? (
          <Link href={caseHref(detail.next, context)} rel="next" className="text-brand-800 underline underline-offset-2">
            {t("next")} →
          </Link>
        ) : null}
        <BareButton type="button" onClick={onHelp} className="text-brand-800 underline underline-offset-2">
          {t("shortcuts")}
        </BareButton>
      </nav>
    </div>
  );
}
