import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { Verification } from "@/lib/upstream/model/verification";
import { renderWithProviders } from "@/test/render";

import { VerificationDetail } from "./verification-detail";

/*
 * Evidence first, always (issue 32): a panel added above the pictures pushed them two screens down and nothing
 * caught it. This guard enumerates the evidence column of a verification that has everything (red flags,
 * masked data, unfinished and failed steps, extra fields, the same person, neighbours): whatever comes before
 * the evidence must be one of the short list of one-line slots below, and a notice there must be a one-line
 * disclosure. A new panel fails it unless it goes after the evidence or is declared here as one line (and then
 * e2e/evidence-first.spec.ts measures the first screen at 1440×900 and 1280×720).
 */

/** The only slots allowed before the evidence: the header (one or two lines), the red flags' chips, the notices. */
const BEFORE_EVIDENCE = ["header", "red-flags", "notices"];

function everything(): Verification {
  return {
    publicId: "ver-everything-1",
    document: "***.982.247-**",
    documentMasked: true,
    maskedBy: "service",
    status: "review",
    flow: "default",
    journey: "onboarding",
    createdAt: "2026-03-09T12:00:00Z",
    expiresAt: "2026-03-10T12:00:00Z",
    reviewState: "assigned",
    steps: [
      { name: "ocr", state: "reproved", notices: [{ code: "OCR_MISMATCH_NAME", message: "Name differs." }], extra: {} },
      { name: "liveness", state: "pending", notices: [], extra: {} },
      { name: "facematch", state: "review", similarity: 61, notices: [], extra: {} },
    ],
    identityScore: 40,
    riskScore: 91,
    pepOrigin: "Deputado Estadual (RJ), mandato 2019–2023",
    restrictiveLists: [
      { name: "OFAC SDN List", source: "U.S. Treasury", extra: {} },
      { name: "Mandados de prisão (BNMP)", source: "CNJ", extra: {} },
    ],
    person: { name: "M*** C***", pep: true },
    extra: { obito: true, something_new: "kept as sent" },
  };
}

function renderEverything() {
  const view = renderWithProviders(
    <VerificationDetail
      verification={everything()}
      navigation={<nav aria-label="Verifications of the list">← Previous · 2 of 9 · Next →</nav>}
      related={<section data-testid="related-panel">Same person</section>}
      media={<section data-testid="media-panel">Face comparison</section>}
    />,
  );
  const column = view.container.querySelector<HTMLElement>("[data-evidence-column]")!;
  const children = [...column.children] as HTMLElement[];
  const evidence = children.findIndex((child) => child.dataset.slot === "evidence");
  return { column, children, evidence };
}

describe("the case page's evidence column", () => {
  it("holds the evidence, with only the declared one-line slots before it", () => {
    const { children, evidence } = renderEverything();
    expect(evidence).toBeGreaterThan(0);
    expect(within(children[evidence]!).getByTestId("media-panel")).toBeInTheDocument();
    const before = children.slice(0, evidence).map((child) => child.dataset.slot ?? child.tagName.toLowerCase());
    // Every child before the evidence is a declared slot, each at most once, in this order.
    expect(before).toEqual(BEFORE_EVIDENCE.filter((slot) => before.includes(slot)));
    // This verification has something for each of them.
    expect(before).toEqual(BEFORE_EVIDENCE);
  });

  it("draws each notice before the evidence as a one-line disclosure that opens by keyboard", () => {
    const { children } = renderEverything();
    const notices = children.find((child) => child.dataset.slot === "notices")!;
    expect(notices.children.length).toBeGreaterThan(0);
    for (const notice of notices.children) {
      // A note whose only child is a <details>, closed, whose summary is its one line.
      expect(notice.getAttribute("role")).toBe("note");
      expect(notice.children).toHaveLength(1);
      const details = notice.firstElementChild as HTMLDetailsElement;
      expect(details.tagName).toBe("DETAILS");
      expect(details.open).toBe(false);
      expect(details.firstElementChild?.tagName).toBe("SUMMARY");
    }
    expect(within(notices).getByTestId("masked-marker")).toHaveTextContent("Masked data");
  });

  it("keeps the header to its id line and its summary line, and the red flags to their one box", () => {
    const { children } = renderEverything();
    const header = children.find((child) => child.dataset.slot === "header")!;
    expect([...header.children].map((child) => child.tagName)).toEqual(["DIV", "SECTION"]);
    expect(within(header).getByRole("heading", { level: 1 })).toHaveTextContent("ver-everything-1");
    expect(within(header).getByRole("navigation", { name: "Verifications of the list" })).toBeInTheDocument();
    const flags = children.find((child) => child.dataset.slot === "red-flags")!;
    expect(flags.children).toHaveLength(1);
    expect(flags.firstElementChild!.getAttribute("aria-labelledby")).toBe("red-flags-heading");
  });

  it("puts the same person, the person, scores, steps, screening and other fields after the evidence", () => {
    const { children, evidence } = renderEverything();
    const after = children.slice(evidence + 1);
    expect(after).toHaveLength(1);
    const rest = after[0]!;
    expect(within(rest).getByTestId("related-panel")).toBeInTheDocument();
    for (const name of ["Document and record", "Scores", "Steps", "PEP and restrictive lists", "Other fields from the service"]) {
      expect(within(rest).getByRole("heading", { name, level: 2 })).toBeInTheDocument();
    }
    expect(
      screen
        .getAllByRole("heading", { level: 2 })
        .filter((heading) => !rest.contains(heading))
        .map((h) => h.id),
    ).toEqual(["summary-heading", "red-flags-heading"]);
  });
});
