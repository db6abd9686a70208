"use client";

import { useTranslations } from "next-intl";

import type { Verification } from "@/lib/upstream/model/verification";
import { redFlags, RISK_SCALE, type RedFlag } from "@/lib/cases/red-flags";

import { useNumber } from "./format";

/*
 * The first thing on the detail: every red flag in one box above the fold (PEP, each restrictive list by
 * name, facematch under the line, liveness not approved, high risk, deceased). Text and a symbol, never
 * colour alone; "none" is said explicitly so an empty box is not mistaken for a loading one.
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

export function RedFlagSummary({ verification }: { verification: Verification }) {
  const t = useTranslations("verifications.redFlags");
  const flags = redFlags(verification);
  if (flags.length === 0) {
    return (
      <section
        aria-labelledby="red-flags-heading"
        data-red-flags="0"
        className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3"
      >
        <h2 id="red-flags-heading" className="text-sm font-semibold text-emerald-900">
          <span aria-hidden="true">✓ </span>
          {t("none")}
        </h2>
      </section>
    );
  }
  return (
    <section
      aria-labelledby="red-flags-heading"
      data-red-flags={flags.length}
      className="rounded-lg border-2 border-red-300 bg-red-50 px-4 py-3"
    >
      <h2 id="red-flags-heading" className="text-sm font-semibold text-red-900">
        <span aria-hidden="true">⚠ </span>
        {t("title", { count: flags.length })}
      </h2>
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
    </section>
  );
}
