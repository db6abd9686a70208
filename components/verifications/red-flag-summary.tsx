import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { useNumber } from "@/components/ui/use-formatters";
import { openSteps, redFlags, RISK_SCALE, type OpenStep, type RedFlag } from "@/lib/cases/red-flags";
import type { Verification } from "@/lib/upstream/model/verification";

/*
 * The first thing on the detail: every red flag in one compact box above the evidence (PEP, each restrictive
 * list by name, facematch under the line, liveness not approved, high risk, deceased), one chip each. Text and a
 * symbol, never colour alone; "none" is said explicitly so an empty box is not mistaken for a loading one. The
 * green all-clear needs every step approved. A step that is not approved is said for what it is: not finished
 * (pending, missing, no state) or finished without passing (review, reproved): "not finished: OCR (reproved)"
 * contradicted itself.
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

/** A step that has not finished yet: the person may still reach it. Any other state but approved is finished, unpassed. */
function unfinished(step: OpenStep): boolean {
  return step.state === "missing" || step.state === null || step.state === "pending";
}

/** The steps keeping the box from an all-clear, in two groups: not finished, and finished without passing. */
function splitOpenSteps(verification: Verification) {
  const open = openSteps(verification);
  return { pending: open.filter(unfinished), failed: open.filter((step) => !unfinished(step)) };
}

function StepsLine({ steps, kind }: { steps: OpenStep[]; kind: "pending" | "failed" }) {
  const t = useTranslations("verifications.redFlags");
  const ts = useTranslations("verifications.steps");
  if (steps.length === 0) return null;
  const name = (step: string) => (ts.has(step) ? ts(step) : step);
  const state = (step: OpenStep) => (step.state === "missing" ? t("stepMissing") : (step.state ?? t("stepNoState")));
  const list = steps.map((step) => `${name(step.name)} (${state(step)})`).join(", ");
  return (
    <p className="text-sm" data-open-steps={steps.length} data-steps-kind={kind}>
      {t(kind === "pending" ? "openSteps" : "failedSteps", { steps: list })}
    </p>
  );
}

/** How the box looks in each of its states: its frame, its heading, and the mark before the heading's words. */
const LOOK = {
  pending: { box: "border border-amber-300 bg-amber-50 text-amber-950", heading: "", mark: "…" },
  clear: { box: "border border-emerald-300 bg-emerald-50", heading: "text-emerald-900", mark: "✓" },
  flagged: { box: "border-2 border-red-300 bg-red-50", heading: "text-red-900", mark: "⚠" },
} as const;

/** The box in one of its states, on as few lines as its content allows: the mark, the heading, then the chips and steps. */
function SummaryBox({ state, count, title, children }: { state: keyof typeof LOOK; count: number; title: string; children?: ReactNode }) {
  const look = LOOK[state];
  return (
    <section
      aria-labelledby="red-flags-heading"
      data-red-flags={count}
      className={`flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg px-3 py-1 ${look.box}`}
    >
      <h2 id="red-flags-heading" className={`text-sm font-semibold ${look.heading}`}>
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
  const { pending, failed } = splitOpenSteps(verification);
  const steps = (
    <>
      <StepsLine steps={pending} kind="pending" />
      <StepsLine steps={failed} kind="failed" />
    </>
  );
  if (flags.length === 0 && pending.length + failed.length > 0) {
    return (
      <SummaryBox state="pending" count={0} title={t(pending.length > 0 ? "noneYet" : "noneButFailed")}>
        {steps}
      </SummaryBox>
    );
  }
  if (flags.length === 0) return <SummaryBox state="clear" count={0} title={t("none")} />;
  return (
    <SummaryBox state="flagged" count={flags.length} title={t("title", { count: flags.length })}>
      {/* `contents`: the chips flow on the heading's line, wrapping only when they must. */}
      <ul className="contents text-red-950">
        {flags.map((flag, index) => (
          <li key={`${flag.kind}-${index}`} data-flag={flag.kind} className="flex gap-1 rounded-full bg-red-100 px-2 text-sm leading-6">
            <span aria-hidden="true" className="font-bold">
              ✕
            </span>
            <span>
              <FlagText flag={flag} />
            </span>
          </li>
        ))}
      </ul>
      {steps}
    </SummaryBox>
  );
}
