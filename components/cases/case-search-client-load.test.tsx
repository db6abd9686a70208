import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { renderWithProviders } from "@/test/render";

import { CaseSearch } from "./case-search";

/*
 * The search loads the API client when first used (lib/cases/search.ts), so the shell's first load need not carry it.
 * When that file cannot be loaded (offline at the first search, a deployment that replaced it), the member reads the
 * search's own words, not the browser's message about a module. In a file of its own: the client fails to load here
 * for every test.
 */

vi.mock("@/lib/shared/api-client/api-request", () => {
  throw new TypeError("Failed to fetch dynamically imported module: /_next/static/chunks/api-request.js");
});

describe("the top bar's search, when the API client cannot be loaded", () => {
  it("says that nothing answered", async () => {
    const { user } = renderWithProviders(<CaseSearch />);
    await user.type(screen.getByRole("textbox", { name: "Find a verification" }), "order-1");
    await user.click(screen.getByRole("button", { name: "Search" }));
    expect(await screen.findByText("No answer from the dashboard. Check your connection and search again.")).toBeVisible();
    expect(screen.queryByText(/dynamically imported module/)).toBeNull();
  });
});
