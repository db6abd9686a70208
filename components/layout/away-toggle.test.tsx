import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { subscribeLive } from "@/lib/shared/api-client/live";
import { mockApi, renderWithProviders } from "@/test/render";

import LiveAwayToggle from "./away-toggle";

/*
 * Going away hands the member's open cases back to their queues: the views on screen (the case queue) are told to read
 * again at once, not only when the live stream reports each case, which a tab polling without the stream hears late.
 */

const LABELS = { away: "Away", awayNow: "You are away", back: "You are back" };
const RELEASED = { released: 2, reassigned: 0, alertsReleased: 0, alertsReassigned: 0 };

let unsubscribe: () => void = () => undefined;
afterEach(() => unsubscribe());

describe("the away switch", () => {
  it("going away tells the views on screen to read again, once it is done", async () => {
    const heard: unknown[] = [];
    unsubscribe = subscribeLive((message) => heard.push(message));
    const api = mockApi({
      "GET /api/account/availability": { away: false },
      "PUT /api/account/availability": { away: true, ...RELEASED },
    });
    const { user } = renderWithProviders(<LiveAwayToggle labels={LABELS} />);
    const toggle = screen.getByRole("switch", { name: "Away" });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(heard).toEqual([]);

    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute("aria-checked", "true"));
    expect(api.calls.filter((call) => call.method === "PUT").map((call) => call.body)).toEqual([{ away: true }]);
    expect(heard).toEqual([null]);
  });

  it("a refused change tells no view to read again", async () => {
    const listener = vi.fn();
    unsubscribe = subscribeLive(listener);
    mockApi({
      "GET /api/account/availability": { away: false },
      "PUT /api/account/availability": { status: 403, body: { error: { code: "forbidden", message: "Not allowed." } } },
    });
    const { user } = renderWithProviders(<LiveAwayToggle labels={LABELS} />);
    const toggle = screen.getByRole("switch", { name: "Away" });
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Not allowed."));
    expect(toggle).toHaveAttribute("aria-checked", "false");
    expect(listener).not.toHaveBeenCalled();
  });
});
