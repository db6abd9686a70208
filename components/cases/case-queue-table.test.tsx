import { screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";

import { caseHref } from "@/lib/cases/queue-context";
import { ANALYST, caseSummary } from "@/test/case-fixtures";
import { apiError, mockApi, renderWithProviders, router } from "@/test/render";

import { CaseQueueTable } from "./case-queue-table";

/*
 * The queue's keyboard: j and k move the selected row (marked aria-current), Enter opens it, a assigns it to
 * the analyst and says so, x picks it for a bulk action, ? asks for the shortcuts. Keys typed in a field do
 * nothing here.
 */

const ITEMS = [caseSummary("ver-queue-0001"), caseSummary("ver-queue-0002"), caseSummary("ver-queue-0003", { assignee: ANALYST })];
const CONTEXT = "queue=open&sort=age";

const selectedRow = () => screen.getAllByRole("row").find((row) => row.getAttribute("aria-current") === "true");

function renderQueue({ onHelp = vi.fn(), onClaimed = vi.fn(), withBulk = false } = {}) {
  function Page() {
    const [picked, setPicked] = useState<Set<string>>(new Set());
    return (
      <>
        <input aria-label="Search" />
        <CaseQueueTable
          items={ITEMS}
          viewerId={ANALYST.id}
          context={CONTEXT}
          onHelp={onHelp}
          onClaimed={onClaimed}
          bulk={withBulk ? { picked, onChange: setPicked } : undefined}
        />
      </>
    );
  }
  return renderWithProviders(<Page />, { url: `/cases?${CONTEXT}` });
}

describe("CaseQueueTable: the keyboard", () => {
  it("selects the first case, moves with j and k, and stops at either end", async () => {
    const { user } = renderQueue();
    expect(selectedRow()).toHaveTextContent("ver-queue-0001");
    await user.keyboard("j");
    expect(selectedRow()).toHaveTextContent("ver-queue-0002");
    await user.keyboard("jjj");
    expect(selectedRow()).toHaveTextContent("ver-queue-0003");
    await user.keyboard("kkkk");
    expect(selectedRow()).toHaveTextContent("ver-queue-0001");
  });

  it("Enter opens the selected case in the queue's context", async () => {
    const { user } = renderQueue();
    await user.keyboard("j{Enter}");
    expect(router.push).toHaveBeenCalledWith(caseHref("ver-queue-0002", CONTEXT));
  });

  it("a assigns the selected case to me, says so, and has the queue read again", async () => {
    const api = mockApi({ "POST /api/cases/ver-queue-0002/assignment": { assigneeId: ANALYST.id } });
    const onClaimed = vi.fn();
    const { user } = renderQueue({ onClaimed });
    await user.keyboard("ja");
    // The claim loads the API client when first sent: as long as a cold transform takes on a busy machine.
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Case ver-queue-0002 assigned to you."), { timeout: 15_000 });
    expect(api.callsTo("POST /api/cases/ver-queue-0002/assignment")[0]?.body).toEqual({ assignee: "me" });
    expect(onClaimed).toHaveBeenCalledTimes(1);
  });

  it("a refused assignment says why, and the queue is read again (someone else may hold it now)", async () => {
    mockApi({
      "POST /api/cases/ver-queue-0001/assignment": apiError(409, { code: "case_taken", message: "Someone else took this case." }),
    });
    const onClaimed = vi.fn();
    const { user } = renderQueue({ onClaimed });
    await user.keyboard("a");
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Someone else took this case."), { timeout: 15_000 });
    expect(onClaimed).toHaveBeenCalledTimes(1);
  });

  it("keys typed in a field are text, not shortcuts", async () => {
    const { user } = renderQueue();
    await user.type(screen.getByRole("textbox", { name: "Search" }), "ja{Enter}");
    expect(selectedRow()).toHaveTextContent("ver-queue-0001");
    expect(router.push).not.toHaveBeenCalled();
  });

  it("? asks for the shortcuts", async () => {
    const onHelp = vi.fn();
    const { user } = renderQueue({ onHelp });
    await user.keyboard("?");
    expect(onHelp).toHaveBeenCalledTimes(1);
  });

  it("x picks the selected case, Shift+x picks the range from the last pick", async () => {
    const { user } = renderQueue({ withBulk: true });
    await user.keyboard("x");
    expect(screen.getByRole("checkbox", { name: "Pick case ver-queue-0001" })).toBeChecked();
    await user.keyboard("jj{Shift>}X{/Shift}");
    for (const publicId of ["ver-queue-0001", "ver-queue-0002", "ver-queue-0003"])
      expect(screen.getByRole("checkbox", { name: `Pick case ${publicId}` })).toBeChecked();
    const table = screen.getByRole("table", { name: "Cases in this queue" });
    expect(within(table).getByRole("checkbox", { name: "Pick all on this page" })).toBeChecked();
  });

  it("applies in order the keys pressed before its code ran (the rows are drawn on the server), each once", async () => {
    const path = "/cases";
    const at = Date.now();
    // As the shell's inline recorder keeps them: two moves, a pick, another pick, the shortcuts' list, and a key
    // after it that the dialog would have taken.
    window.__earlyKeys = ["j", "x", "k", "x", "?", "j"].map((key) => ({ key, path, at }));
    try {
      const onHelp = vi.fn();
      renderQueue({ onHelp, withBulk: true });
      expect(selectedRow()).toHaveTextContent("ver-queue-0001");
      for (const publicId of ["ver-queue-0001", "ver-queue-0002"])
        expect(screen.getByRole("checkbox", { name: `Pick case ${publicId}` })).toBeChecked();
      expect(screen.getByRole("checkbox", { name: "Pick case ver-queue-0003" })).not.toBeChecked();
      expect(onHelp).toHaveBeenCalledTimes(1);
      expect(window.__earlyKeys).toEqual([]);
    } finally {
      delete window.__earlyKeys;
    }
  });

  it("leaves the keys pressed on another page", () => {
    window.__earlyKeys = [{ key: "j", path: "/verifications", at: Date.now() }];
    try {
      renderQueue();
      expect(selectedRow()).toHaveTextContent("ver-queue-0001");
      expect(window.__earlyKeys).toHaveLength(1);
    } finally {
      delete window.__earlyKeys;
    }
  });

  it("says so when the queue is empty", () => {
    renderWithProviders(<CaseQueueTable items={[]} viewerId={ANALYST.id} context="" onHelp={vi.fn()} onClaimed={vi.fn()} />);
    expect(screen.getByText("No cases in this queue.")).toBeVisible();
  });
});
