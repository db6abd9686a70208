import { act, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { BUILT_IN_PERMISSIONS } from "@/lib/auth/permissions";
import type { QueueParams } from "@/lib/cases/queue-requests";
import type { CaseQueueResponse } from "@/lib/cases/types";
import { BACKGROUND_HEADER } from "@/lib/shared/api-client/background";
import { publishLive } from "@/lib/shared/api-client/live";
import { ANALYST, caseSummary } from "@/test/case-fixtures";
import { mockApi, renderWithProviders, router } from "@/test/render";

import { CaseQueue } from "./case-queue";
import type { QueueView } from "./queue-view";

/*
 * The review queue drawn from the view the server read: no request on its first paint; a tab asks the server for the
 * next view through the address; after a sync, and when the live stream says a case changed, the queue reads its own
 * view again (a live read is a background request: not the member's activity), one read at a time however many events
 * come, and an answer for a view the server has since replaced is dropped. A view the server failed to read is shown
 * as that failure, its retry drawing the view again.
 */

const PARAMS: QueueParams = { queue: "open", sort: "age", page: 1, flag: "pep" };
const COUNTS = { open: 2, mine: 0, unassigned: 2, confirming: 0, escalated: 0, decided: 0, closed: 5 };

function answer(publicIds: string[]): CaseQueueResponse {
  return { queue: "open", items: publicIds.map((id) => caseSummary(id)), total: publicIds.length, page: 1, perPage: 25, counts: COUNTS };
}

const view = (publicIds: string[], params: QueueParams = PARAMS): QueueView => ({ params, answer: { data: answer(publicIds) } });

function renderQueue(first: QueueView, permissions = BUILT_IN_PERMISSIONS.analyst) {
  const viewer = { id: ANALYST.id, permissions };
  const rendered = renderWithProviders(<CaseQueue view={first} viewer={viewer} staff={[]} />, { url: "/cases?queue=open&flag=pep" });
  return { ...rendered, show: (next: QueueView) => rendered.rerender(<CaseQueue view={next} viewer={viewer} staff={[]} />) };
}

// The queue's requests load the API client when first sent: as long as a cold transform takes on a busy machine.
const LAZY = { timeout: 15_000 };

const caseIds = () => screen.getAllByTestId("case-row").map((row) => within(row).getByRole("link").textContent);

/** An answer the test gives when it chooses. */
function held() {
  let give: (body: CaseQueueResponse) => void = () => undefined;
  const promise = new Promise<{ status: number; body: CaseQueueResponse }>((resolve) => {
    give = (body) => resolve({ status: 200, body });
  });
  return { promise, give: (body: CaseQueueResponse) => act(async () => give(body)) };
}

const caseEvent = (topic = "case.assigned") => act(() => publishLive({ id: "1", topic, payload: { publicId: "ver-x" } }));

describe("CaseQueue", () => {
  it("draws the server's view with its counts, and asks for nothing", () => {
    const api = mockApi({});
    renderQueue(view(["ver-queue-0001", "ver-queue-0002"]));
    expect(caseIds()).toEqual(["ver-queue-0001", "ver-queue-0002"]);
    expect(screen.getByRole("button", { name: "Unassigned (2)" })).toBeVisible();
    expect(api.calls).toEqual([]);
  });

  it("a tab asks the server for its view through the address, from page 1, keeping the filters", async () => {
    mockApi({});
    const { user } = renderQueue(view(["ver-queue-0001"], { ...PARAMS, page: 3 }));
    await user.click(screen.getByRole("button", { name: /^Unassigned/ }));
    expect(router.replace).toHaveBeenCalledWith("/cases?queue=unassigned&sort=age&flag=pep", { scroll: false });
  });

  it("a case's live event reads the same view again, in the background, and draws it; other topics do not", async () => {
    const api = mockApi({ "GET /api/cases": answer(["ver-queue-0003"]) });
    renderQueue(view(["ver-queue-0001"]));
    await caseEvent("verification.changed");
    expect(api.calls).toEqual([]);
    await caseEvent();
    await waitFor(() => expect(caseIds()).toEqual(["ver-queue-0003"]), LAZY);
    const [read] = api.callsTo("GET /api/cases");
    expect(Object.fromEntries(read!.query)).toEqual({ queue: "open", sort: "age", page: "1", flag: "pep" });
    expect(read!.headers.get(BACKGROUND_HEADER)).toBe("1");
  });

  it("back after an outage, the queue reads its view again", async () => {
    const api = mockApi({ "GET /api/cases": answer(["ver-queue-0004"]) });
    renderQueue(view(["ver-queue-0001"]));
    await act(() => publishLive(null));
    await waitFor(() => expect(caseIds()).toEqual(["ver-queue-0004"]), LAZY);
    expect(api.callsTo("GET /api/cases")).toHaveLength(1);
  });

  it("a burst of events costs the read in flight and one more after it", async () => {
    const first = held();
    const api = mockApi({ "GET /api/cases": [() => first.promise, answer(["ver-queue-0009"])] });
    renderQueue(view(["ver-queue-0001"]));
    for (let event = 0; event < 5; event += 1) await caseEvent();
    await waitFor(() => expect(api.callsTo("GET /api/cases")).toHaveLength(1), LAZY);
    await first.give(answer(["ver-queue-0008"]));
    await waitFor(() => expect(caseIds()).toEqual(["ver-queue-0009"]), LAZY);
    expect(api.callsTo("GET /api/cases")).toHaveLength(2);
  });

  it("drops a read answered after the server drew another view, and reads the view on screen next", async () => {
    const late = held();
    const next = held();
    const api = mockApi({ "GET /api/cases": [() => late.promise, () => next.promise] });
    const { show } = renderQueue(view(["ver-queue-0001"]));
    await caseEvent();
    await waitFor(() => expect(api.callsTo("GET /api/cases")).toHaveLength(1), LAZY);
    show(view(["ver-queue-0005"], { ...PARAMS, queue: "mine" }));
    await late.give(answer(["ver-queue-0006"]));
    await caseEvent();
    // One read at a time: the second is sent once the first has settled, its answer handled.
    await waitFor(() => expect(api.callsTo("GET /api/cases")).toHaveLength(2), LAZY);
    await act(async () => undefined);
    expect(caseIds()).toEqual(["ver-queue-0005"]);
    expect(api.callsTo("GET /api/cases")[1]!.query.get("queue")).toBe("mine");
    await next.give(answer(["ver-queue-0007"]));
    await waitFor(() => expect(caseIds()).toEqual(["ver-queue-0007"]), LAZY);
  });

  it("after a sync, reads its view again as the member's own request", async () => {
    const api = mockApi({
      "POST /api/cases/sync": { ran: true, seen: 3, opened: 1, closed: 0 },
      "GET /api/cases": answer(["ver-queue-0001", "ver-queue-0007"]),
    });
    const { user } = renderQueue(view(["ver-queue-0001"]), BUILT_IN_PERMISSIONS.admin);
    await user.click(screen.getByRole("button", { name: "Sync the review list now" }));
    await waitFor(() => expect(caseIds()).toEqual(["ver-queue-0001", "ver-queue-0007"]), LAZY);
    expect(api.callsTo("GET /api/cases")[0]!.headers.get(BACKGROUND_HEADER)).toBeNull();
  });

  it("? opens the shortcuts' list, whose code comes when asked for", async () => {
    mockApi({});
    const { user } = renderQueue(view(["ver-queue-0001"]));
    await user.keyboard("?");
    // Its module loads on the first press: as long as a cold transform takes on a busy machine.
    expect(await screen.findByRole("dialog", { name: "Keyboard shortcuts" }, { timeout: 15_000 })).toBeVisible();
  });

  it("shows the server's failure, and its retry draws the view again", async () => {
    mockApi({});
    const { user } = renderQueue({
      params: PARAMS,
      answer: { error: { status: 503, code: "upstream_unavailable", message: "The service is unavailable.", retryable: true } },
    });
    expect(await screen.findByText("It timed out or failed on its side. Try again in a moment.")).toBeVisible();
    expect(screen.queryByTestId("case-row")).toBeNull();
    await user.click(screen.getByRole("button", { name: /try again/i }));
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });
});
