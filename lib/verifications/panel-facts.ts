import type { TemplateFacts } from "@/lib/cases/templates";
import { KNOWN_STEPS, type Verification } from "@/lib/upstream/model/verification";

/*
 * What the case panel needs of the verification, worked out by the server page from the verification it drew: a few
 * facts handed to the panel's client code, never the verification itself (the page's data goes to the browser once,
 * as the evidence's HTML).
 */

export interface PanelFacts {
  /** The decision templates' `{flow}` and `{failing_step}` (components/cases/template-facts.ts). */
  template: TemplateFacts;
  /** Asking to verify again needs the document typed: the service shows it masked (the dashboard's own mask hides nothing from the server). */
  needsDocument: boolean;
}

/** Without the verification (the server failed to read it): no template facts, and the document asked for. */
export const UNKNOWN_PANEL_FACTS: PanelFacts = { template: { flow: null, failing_step: null }, needsDocument: true };

/** The step a decision template's `{failing_step}` names: the first one not approved (one that ended first). */
function failingStep(verification: Verification): Verification["steps"][number] | undefined {
  const unapproved = verification.steps.filter((step) => step.state !== "approved");
  return unapproved.find((step) => step.state !== null) ?? unapproved[0];
}

/** `stepName` names a known step in the member's language. */
export function panelFactsOf(verification: Verification, stepName: (name: (typeof KNOWN_STEPS)[number]) => string): PanelFacts {
  const step = failingStep(verification);
  return {
    template: {
      flow: verification.flow ?? null,
      failing_step: step
        ? (KNOWN_STEPS as readonly string[]).includes(step.name)
          ? stepName(step.name as (typeof KNOWN_STEPS)[number])
          : step.name
        : null,
    },
    needsDocument: verification.documentMasked && verification.maskedBy !== "dashboard",
  };
}
