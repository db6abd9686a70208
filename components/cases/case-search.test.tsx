import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { apiError, mockApi, renderWithProviders, router } from "@/test/render";

import { CaseSearch } from "./case-search";

/*
 * The top bar's search on every signed-in page (components/cases/case-search.tsx): one hit opens it; a refusal says
 * why in its own words, a quota in the member's language; no answer at all is said in the member's language too.
 */

async function searchRef(refId: string) {
  const rendered = renderWithProviders(<CaseSearch />);
  await rendered.user.type(screen.getByRole("textbox", { name: "Find a verification" }), refId);
  await rendered.user.click(screen.getByRole("button", { name: "Search" }));
  return rendered;
}

describe("the top bar's search", () => {
  it("opens the one verification it finds", async () => {
    const api = mockApi({ "POST /api/search": { hits: [{ publicId: "ver-1", refId: "order-1", status: "approved" }] } });
    await searchRef("order-1");
    await expect.poll(() => router.push.mock.calls).toEqual([["/verifications/ver-1"]]);
    expect(api.callsTo("POST /api/search")[0]?.body).toEqual({ ref_id: "order-1" });
  });

  it("says a refusal in its own words", async () => {
    mockApi({ "POST /api/search": apiError(400, { code: "validation", message: "Invalid input: ref_id", fields: ["ref_id"] }) });
    await searchRef("order-1");
    expect(await screen.findByText("Invalid input: ref_id")).toBeVisible();
  });

  it("says that nothing answered when the request never reached the dashboard", async () => {
    mockApi({
      "POST /api/search": () => {
        throw new TypeError("Failed to fetch");
      },
    });
    await searchRef("order-1");
    expect(await screen.findByText("No answer from the dashboard. Check your connection and search again.")).toBeVisible();
    expect(screen.queryByText(/Failed to fetch|could not be reached/)).toBeNull();
  });
});
