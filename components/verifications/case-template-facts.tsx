"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { TemplateFactsContext } from "@/components/cases/template-facts";
import type { TemplateFacts } from "@/lib/cases/templates";
import { KNOWN_STEPS, type Verification } from "@/lib/upstream/model/verification";
import { useVerification } from "@/lib/verifications/hooks";

/** The step a decision template's `{failing_step}` names: the first one not approved (one that ended first). */
function failingStep(verification: Verification): Verification["steps"][number] | undefined {
  const unapproved = verification.steps.filter((step) => step.state !== "approved");
  return unapproved.find((step) => step.state !== null) ?? unapproved[0];
}

/**
 * The verification's facts for the case panel's decision templates (`{flow}`, `{failing_step}`), read from the page's
 * own copy of the verification: never a second read of the service.
 */
export function CaseTemplateFacts({ publicId, children }: { publicId: string; children: ReactNode }) {
  const t = useTranslations("verifications.steps");
  const verification = useVerification(publicId, { enabled: false }).data?.verification;
  const step = verification ? failingStep(verification) : undefined;
  const facts: TemplateFacts = {
    flow: verification?.flow ?? null,
    failing_step: step
      ? (KNOWN_STEPS as readonly string[]).includes(step.name)
        ? t(step.name as (typeof KNOWN_STEPS)[number])
        : step.name
      : null,
  };
  return <TemplateFactsContext.Provider value={facts}>{children}</TemplateFactsContext.Provider>;
}
