"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { useNumber } from "@/components/ui/use-formatters";
import { openSteps, redFlags, RISK_SCALE, type OpenStep, type RedFlag } from "@/lib/cases/red-flags";
import type { Verification } from "@/lib/upstream/model/verification";

/*
 * The first thing on the detail: every red flag in one box above the fold (PEP, each restrictive list by
 * name, facematch under the line, liveness not approved, high risk, deceased). Text and a symbol, never
 * colour alone; "none" is said explicitly so an empty box is not mistaken for a loading one. The green
 * all-clear needs every step approved: while one is pending or missing the box says so instead.
 */
function FlagText({ flag }: { flag: RedFlag }) {
  const t = useTranslations("verifications.redFlags");
  const number = useNumber();
  switch (flag.kind) {
    case "pep":
      return <>{flag.origin ? t("pepWithOrigin", { origin: flag.origin }) : t("pep")}</>;
    case "restrictive_list":
      return (
        <>
          {t("restrictiveList", { name: flag.name ?? t("unnamedList") })}
          {flag.source ? <span className="text-red-800"> · {t("source", { source: flag.source })}</span> : null}
        </>
      );
    case "facematch_below":
      return <>{t("facematchBelow", { similarity: number(flag.similarity), threshold: 80 })}</>;
    case "liveness_not_approved":
      return <>{t("livenessNotApproved", { state: flag.state ?? "—" })}</>;
    case "high_risk":
      return <>{t("highRisk", { score: number(flag.score), max: number(RISK_SCALE) })}</>;
    case "deceased":
      return <>{t("deceased")}</>;
  }
}

function OpenStepsLine({ steps }: { steps: OpenStep[] }) {
  const t = useTranslations("verifications.redFlags");
  const ts = useTranslations("verifications.steps");
  const name = (step: string) => (ts.has(step) ? ts(step) : step);
  const state = (step: OpenStep) => (step.state === "missing" ? t("stepMissing") : (step.state ?? t("stepNoState")));
  return (
    <p className="mt-1 text-sm" data-open-steps={steps.length}>
      {t("openSteps", { steps: steps.map((step) => `${name(step.name)} (${state(step)})`).join(", ") })}
    </p>
  );
}

/** How the box looks in each of its states: its frame, its heading, and the mark before the heading's words. */
const LOOK = {
  pending: {
    box: "rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-amber-950",
    heading: "text-sm font-semibold",
    mark: "…",
  },
  clear: {
    box: "rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3",
    heading: "text-sm font-semibold text-emerald-900",
    mark: "✓",
  },
  flagged: { box: "rounded-lg border-2 border-red-300 bg-red-50 px-4 py-3", heading: "text-sm font-semibold text-red-900", mark: "⚠" },
} as const;

/** The box in one of its states: the mark (read by sight only), then the heading's words, then what follows. */
function SummaryBox({ state, count, title, children }: { state: keyof typeof LOOK; count: number; title: string; children?: ReactNode }) {
  const look = LOOK[state];
  return (
    <section aria-labelledby="red-flags-heading" data-red-flags={count} className={look.box}>
      <h2 id="red-flags-heading" className={look.heading}>
        <span aria-hidden="true">{`${look.mark} `}</span>
        {title}
      </h2>
      {children}
    </section>
  );
}

export function RedFlagSummary({ verification }: { verification: Verification }) {
  const t = useTranslations("verifications.redFlags");
  const flags = redFlags(verification);
  const unfinished = openSteps(verification);
  if (flags.length === 0 && unfinished.length > 0) {
    return (
      <SummaryBox state="pending" count={0} title={t("noneYet")}>
        <OpenStepsLine steps={unfinished} />
      </SummaryBox>
    );
  }
  if (flags.length === 0) return <SummaryBox state="clear" count={0} title={t("none")} />;
  return (
    <SummaryBox state="flagged" count={flags.length} title={t("title", { count: flags.length })}>
      <ul className="mt-2 grid gap-x-6 gap-y-1 text-sm text-red-950 sm:grid-cols-2">
        {flags.map((flag, index) => (
          <li key={`${flag.kind}-${index}`} data-flag={flag.kind} className="flex gap-2">
            <span aria-hidden="true" className="font-bold">
              ✕
            </span>
            <span>
              <FlagText flag={flag} />
            </span>
          </li>
        ))}
      </ul>
      {unfinished.length > 0 ? <OpenStepsLine steps={unfinished} /> : null}
    </SummaryBox>
  );
}
