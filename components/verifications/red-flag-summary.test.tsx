import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { Verification, VerificationStep } from "@/lib/upstream/model/verification";
import { renderWithProviders } from "@/test/render";

import { RedFlagSummary } from "./red-flag-summary";

/*
 * The red-flag box says what the steps are: a reproved OCR is not "not finished" (issue 32 read "No red flag…
 * Not finished: OCR (reproved)"); a pending one is. No all-clear while either is so.
 */

function withSteps(steps: Array<Pick<VerificationStep, "name" | "state">>): Verification {
  return {
    publicId: "ver-flags-1",
    document: "***.982.247-**",
    documentMasked: true,
    status: "review",
    steps: steps.map((step) => ({ ...step, notices: [], extra: {} })),
    identityScore: 80,
    riskScore: 10,
    pepOrigin: null,
    restrictiveLists: [],
    person: {},
    extra: {},
  };
}

const box = () => screen.getByRole("region", { name: /red flag|all-clear/i });

describe("RedFlagSummary", () => {
  it("says a failed step did not pass, never that it has not finished", () => {
    renderWithProviders(
      <RedFlagSummary
        verification={withSteps([
          { name: "ocr", state: "reproved" },
          { name: "liveness", state: "approved" },
          { name: "facematch", state: "approved" },
        ])}
      />,
    );
    expect(box()).toHaveTextContent("No red flag, but not every check passed: this is not an all-clear.");
    expect(box()).toHaveTextContent("Not passed: OCR (reproved)");
    expect(box()).not.toHaveTextContent("Not finished");
    expect(box()).not.toHaveTextContent("has finished");
  });

  it("says a pending step has not finished, and a failed one beside it did not pass", () => {
    renderWithProviders(
      <RedFlagSummary
        verification={withSteps([
          { name: "ocr", state: "review" },
          { name: "liveness", state: "pending" },
        ])}
      />,
    );
    expect(box()).toHaveTextContent("No red flag so far, but not every check has finished: this is not an all-clear.");
    expect(box()).toHaveTextContent("Not finished: Liveness (pending), Facematch (missing)");
    expect(box()).toHaveTextContent("Not passed: OCR (review)");
  });

  it("gives the all-clear only when every step passed", () => {
    renderWithProviders(
      <RedFlagSummary
        verification={withSteps([
          { name: "ocr", state: "approved" },
          { name: "liveness", state: "approved" },
          { name: "facematch", state: "approved" },
        ])}
      />,
    );
    expect(box()).toHaveTextContent("No red flags: not PEP, on no restrictive list, checks passed, risk not high.");
    expect(box()).not.toHaveTextContent("Not ");
  });
});
