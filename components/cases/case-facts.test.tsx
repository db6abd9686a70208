import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { ANALYST, caseDetail } from "@/test/case-fixtures";
import { renderWithProviders } from "@/test/render";

import { CaseStageNotes } from "./case-facts";

/*
 * Beside the case's own stage: the provider's review sub-state where it differs (api/verification-statuses.mdx: open,
 * assigned, decided), and why a closed case closed when the person's flow expired.
 */

describe("CaseStageNotes", () => {
  it("shows the provider's sub-state only where it differs from the case here", () => {
    const { unmount } = renderWithProviders(<CaseStageNotes detail={caseDetail("ver-1", { upstreamReviewState: "assigned" })} />);
    expect(screen.getByTestId("case-provider-review-state")).toHaveTextContent("At the provider: an analyst has it.");
    unmount();
    const agreed = renderWithProviders(
      <CaseStageNotes detail={caseDetail("ver-2", { upstreamReviewState: "assigned", assignee: ANALYST })} />,
    );
    expect(screen.queryByTestId("case-provider-review-state")).toBeNull();
    agreed.unmount();
    // Taken here, still open at the provider (the team's taking is never told to it): nothing to say.
    renderWithProviders(<CaseStageNotes detail={caseDetail("ver-4", { upstreamReviewState: "open", assignee: ANALYST })} />);
    expect(screen.queryByTestId("case-provider-review-state")).toBeNull();
  });

  it("says a case closed because the person's flow expired", () => {
    renderWithProviders(
      <CaseStageNotes detail={caseDetail("ver-3", { status: "closed", closedReason: "expired", closedAt: "2026-03-10T11:00:00Z" })} />,
    );
    expect(screen.getByTestId("case-closed-expired")).toHaveTextContent("the person's flow expired without an outcome");
  });
});
