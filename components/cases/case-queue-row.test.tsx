import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { CaseSummary } from "@/lib/cases/types";
import { ANALYST, caseSummary } from "@/test/case-fixtures";
import { renderWithProviders } from "@/test/render";

import { CaseQueueRow } from "./case-queue-row";

/*
 * One row of the queue: its priority in words with its level for assistive technology, "In review" as the
 * reason when no flag is, the person's name and masked document, the due time marked when overdue, and the assignee.
 */

const NOW = Date.parse("2026-03-11T15:00:00Z");

function renderRow(item: CaseSummary) {
  return renderWithProviders(
    <table>
      <tbody>
        <CaseQueueRow
          item={item}
          selected={false}
          viewerId="someone-else"
          context="queue=open"
          now={NOW}
          bulk={undefined}
          rowRef={() => {}}
          onSelect={() => {}}
          onPick={() => {}}
        />
      </tbody>
    </table>,
  );
}

describe("CaseQueueRow", () => {
  it("says the priority's reasons, weightiest first, and its level to assistive technology", () => {
    renderRow(
      caseSummary("ver-row-0001", {
        flags: ["pep", "restrictive_list"],
        priority: {
          score: 20,
          level: "high",
          reasons: [
            { kind: "flag", flag: "restrictive_list" },
            { kind: "flag", flag: "pep" },
            { kind: "overdue", hours: 3 },
          ],
        },
        assignee: ANALYST,
      }),
    );
    const row = screen.getByTestId("case-row");
    expect(row).toHaveTextContent("High priority: Restrictive list · PEP · overdue 3 h");
    expect(row).not.toHaveTextContent("In review");
    expect(row).toHaveTextContent("***.456.789-**");
    expect(row).toHaveTextContent(ANALYST.name || ANALYST.email);
    // Due on 2026-03-11 12:00, shown at 15:00: overdue, said in words too.
    expect(row).toHaveTextContent("Overdue");
  });

  it("a case with no flag is here for review, and a long overdue one counts in days", () => {
    renderRow(
      caseSummary("ver-row-0002", {
        dueAt: "2026-03-08T12:00:00Z",
        priority: { score: 6, level: "medium", reasons: [{ kind: "overdue", hours: 75 }] },
      }),
    );
    const row = screen.getByTestId("case-row");
    expect(row).toHaveTextContent("Medium priority: In review · overdue 3 d");
    expect(row).toHaveTextContent("Nobody");
  });

  it("names the person beside the document, the whole name on hover; a case knowing no name shows the document alone", () => {
    const { unmount } = renderRow(caseSummary("ver-row-0004", { personName: "M*** A*** d*** S***" }));
    const name = screen.getByTestId("case-person-name");
    expect(name).toHaveTextContent("M*** A*** d*** S***");
    expect(name).toHaveAttribute("title", "M*** A*** d*** S***");
    expect(name.closest("td")).toHaveTextContent("M*** A*** d*** S******.456.789-**");
    unmount();
    renderRow(caseSummary("ver-row-0005", { personName: null }));
    expect(screen.queryByTestId("case-person-name")).toBeNull();
    expect(screen.getByTestId("case-row")).toHaveTextContent("***.456.789-**");
  });

  it("nothing pressing is said as such, and a re-verification waited for is a reason", () => {
    renderRow(
      caseSummary("ver-row-0003", {
        upstreamStatus: "started",
        dueAt: "2026-03-12T12:00:00Z",
        priority: { score: -40, level: "normal", reasons: [{ kind: "reverification" }] },
      }),
    );
    const row = screen.getByTestId("case-row");
    expect(row).toHaveTextContent("Normal priority: waiting for re-verification");
    expect(row).not.toHaveTextContent("In review");
    expect(row).not.toHaveTextContent("Overdue");
  });
});
