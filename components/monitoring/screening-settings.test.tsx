import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { mockApi, renderWithProviders, router } from "@/test/render";

import { ScreeningSettings } from "./screening-settings";

/*
 * The screening's budget on /admin/cases: shown with today's spending, a typed value checked before anything is sent
 * (the error tied to the field), a valid one saved through PUT, and a run now whose result is announced; the page is
 * drawn again by the server after each.
 */

describe("ScreeningSettings", () => {
  it("saves a whole number, refuses anything else by the field, and announces a run's result", async () => {
    const api = mockApi({
      "PUT /api/monitoring/settings": { dailyBudget: 50, spentToday: 3, left: 47 },
      "POST /api/monitoring/run": { ran: true, screened: 2, failed: 0, alertsOpened: 1, calls: 4, budget: 50, budgetLeft: 43 },
    });
    const { user } = renderWithProviders(<ScreeningSettings budget={{ dailyBudget: 10, spentToday: 3, left: 7 }} />);
    const field = await screen.findByLabelText("Daily budget (upstream calls)");
    expect(field).toHaveValue("10");
    expect(screen.getByText("Spent today: 3 calls; left: 7.")).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, "lots");
    await user.click(screen.getByRole("button", { name: "Save budget" }));
    expect(field).toHaveAccessibleDescription(expect.stringContaining("Type a whole number of calls, 0 or more."));
    expect(api.callsTo("PUT /api/monitoring/settings")).toHaveLength(0);

    await user.clear(field);
    await user.type(field, "50");
    await user.click(screen.getByRole("button", { name: "Save budget" }));
    expect(await screen.findByText("Budget saved.")).toBeInTheDocument();
    expect(api.callsTo("PUT /api/monitoring/settings")[0]?.body).toEqual({ dailyBudget: 50 });

    await user.click(screen.getByRole("button", { name: "Screen now" }));
    expect(await screen.findByText("Screened 2 people; 1 alert opened; 4 calls, 43 left today.")).toBeInTheDocument();
    // The page is drawn again after each request that changed what it shows (the budget, then what the run spent).
    expect(router.refresh).toHaveBeenCalledTimes(2);
  });
});
