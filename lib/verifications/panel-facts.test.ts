import { describe, expect, it } from "vitest";

import type { VerificationStep } from "@/lib/upstream/model/verification";
import { verificationFixture } from "@/test/verification-fixtures";

import { panelFactsOf } from "./panel-facts";

/*
 * The facts the case panel gets of the verification the server page drew: the decision templates' `{flow}` and
 * `{failing_step}`, and whether asking to verify again needs the document typed.
 */

const step = (name: string, state: string | null): VerificationStep => ({ name, state, notices: [], extra: {} });
const stepName = (name: string) => `«${name}»`;

describe("panelFactsOf", () => {
  it("names the first step that ended unapproved, in the member's language, and the flow", () => {
    const verification = verificationFixture({
      flow: "kyc-sow",
      steps: [step("ocr", "approved"), step("liveness", null), step("facematch", "reproved")],
    });
    expect(panelFactsOf(verification, stepName).template).toEqual({ flow: "kyc-sow", failing_step: "«facematch»" });
  });

  it("falls back to the first unapproved step when none ended, and keeps a step the catalogue does not know as sent", () => {
    expect(panelFactsOf(verificationFixture({ steps: [step("ocr", "approved"), step("liveness", null)] }), stepName).template).toEqual({
      flow: null,
      failing_step: "«liveness»",
    });
    expect(panelFactsOf(verificationFixture({ steps: [step("address_proof", "reproved")] }), stepName).template.failing_step).toBe(
      "address_proof",
    );
    expect(panelFactsOf(verificationFixture({ steps: [step("ocr", "approved")] }), stepName).template.failing_step).toBeNull();
  });

  it("asks for the document only where the service itself masks it", () => {
    expect(panelFactsOf(verificationFixture(), stepName).needsDocument).toBe(false);
    expect(panelFactsOf(verificationFixture({ documentMasked: true, maskedBy: "service" }), stepName).needsDocument).toBe(true);
    expect(panelFactsOf(verificationFixture({ documentMasked: true, maskedBy: "dashboard" }), stepName).needsDocument).toBe(false);
  });
});
