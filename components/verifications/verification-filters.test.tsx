import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { ViewNavigationProvider } from "@/components/ui/view-navigation";
import type { VerificationFilters as Filters } from "@/lib/upstream/model/verification-query";
import { currentUrl, renderWithProviders, router } from "@/test/render";

import { ListFilters, ListPagination, SortButton } from "./list-controls";
import { VerificationFilters } from "./verification-filters";

/*
 * The verification list's filters: what Apply hands the page, the date range refused before anything is
 * applied, and, through the list's islands, the address each control asks the server for (the list is drawn on
 * the server: components/verifications/verification-list.tsx).
 */

function renderFilters(filters: Filters = { per_page: 20 }) {
  const onApply = vi.fn();
  const view = renderWithProviders(<VerificationFilters filters={filters} maxPerPage={100} onApply={onApply} />);
  return { onApply, ...view };
}

/** The filters are folded under their summary: open them as the analyst does. */
async function openFilters(user: ReturnType<typeof renderFilters>["user"]) {
  await user.click(screen.getByText("Filters"));
  return screen.getByRole("form", { name: "Filters" });
}

describe("VerificationFilters", () => {
  it("applies the chosen statuses, flow, journey, dates and page size, from the first page", async () => {
    const { user, onApply } = renderFilters({ per_page: 20, page: 3 });
    const form = await openFilters(user);
    await user.click(within(form).getByRole("checkbox", { name: "In review" }));
    await user.click(within(form).getByRole("checkbox", { name: "Reproved" }));
    await user.selectOptions(within(form).getByRole("combobox", { name: "Flow" }), "KYC with source of wealth");
    await user.selectOptions(within(form).getByRole("combobox", { name: "Journey" }), "Onboarding");
    await user.type(within(form).getByLabelText("From"), "2026-03-01");
    await user.type(within(form).getByLabelText("To"), "2026-03-09");
    await user.selectOptions(within(form).getByRole("combobox", { name: "Rows per page" }), "50");
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));

    expect(onApply).toHaveBeenCalledTimes(1);
    expect(onApply).toHaveBeenCalledWith({
      status: ["review", "reproved"],
      flow: "kyc-sow",
      journey: "onboarding",
      from: "2026-03-01",
      to: "2026-03-09",
      per_page: 50,
      page: undefined,
    });
  });

  it("refuses a start date after the end date, names the problem and applies nothing", async () => {
    const { user, onApply } = renderFilters();
    const form = await openFilters(user);
    await user.type(within(form).getByLabelText("From"), "2026-03-09");
    await user.type(within(form).getByLabelText("To"), "2026-03-01");
    // Each date bounds the other (min, max): the browser's own check stops the click first.
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(within(form).getByLabelText("To")).toBeInvalid();
    expect(onApply).not.toHaveBeenCalled();

    // A submission the browser lets through (no constraint validation) meets the form's own check.
    fireEvent.submit(form);
    expect(within(form).getByRole("alert")).toHaveTextContent("The start date must not be after the end date.");
    expect(within(form).getByLabelText("From")).toHaveAttribute("aria-invalid", "true");
    expect(within(form).getByLabelText("To")).toHaveAttribute("aria-invalid", "true");
    expect(onApply).not.toHaveBeenCalled();
  });

  it("Clear keeps only the page size", async () => {
    const { user, onApply } = renderFilters({ status: ["review"], flow: "default", per_page: 50 });
    const form = await openFilters(user);
    await user.click(within(form).getByRole("button", { name: "Clear" }));
    expect(onApply).toHaveBeenCalledWith({ per_page: 50 });
  });

  it("names the applied filters in its summary, and none when there are none", () => {
    const { unmount } = renderFilters({ status: ["review"], flow: "kyc-sow", from: "2026-03-01", per_page: 20 });
    expect(screen.getByText("In review · KYC with source of wealth · 2026-03-01 – …")).toBeInTheDocument();
    unmount();
    renderFilters();
    expect(screen.getByText("none applied: every verification")).toBeInTheDocument();
  });
});

const pagination = { page: 2, perPage: 20, total: 95, totalPages: 5 };
const sort = { key: "risk_score", direction: "desc" } as const;

function renderIslands(filters: Filters) {
  return renderWithProviders(
    <ViewNavigationProvider path="/verifications">
      <ListFilters filters={filters} sort={sort} maxPerPage={100} />
      <SortButton filters={filters} sort={sort} column="risk_score" numeric noteId="note">
        sort by Risk score
      </SortButton>
      <ListPagination filters={filters} sort={sort} pagination={pagination} available />
    </ViewNavigationProvider>,
    { url: "/verifications?status=review&page=2&sort=-risk_score" },
  );
}

describe("The verification list's islands and the address", () => {
  it("Apply asks for the new view's first page, its sort kept, as a new history entry", async () => {
    const { user } = renderIslands({ status: ["review"], per_page: 20, page: 2 });
    const form = await openFilters(user);
    await user.click(within(form).getByRole("checkbox", { name: "Approved" }));
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(router.push.mock.calls).toEqual([["/verifications?status=approved%2Creview&sort=-risk_score", { scroll: false }]]);
    expect(currentUrl()).toBe("/verifications?status=approved%2Creview&sort=-risk_score");
    expect(router.refresh).not.toHaveBeenCalled();
  });

  it("Apply on the view already shown draws it afresh and adds no history entry", async () => {
    const { user } = renderIslands({ status: ["review"], per_page: 20 });
    const form = await openFilters(user);
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(router.refresh).toHaveBeenCalledTimes(1);
    expect(router.push).not.toHaveBeenCalled();
  });

  it("a sort replaces the history entry, descending then ascending then none, the filters and page kept", async () => {
    const { user } = renderIslands({ status: ["review"], per_page: 20, page: 2 });
    await user.click(screen.getByRole("button", { name: "sort by Risk score" }));
    expect(router.replace.mock.calls).toEqual([["/verifications?status=review&page=2&sort=risk_score", { scroll: false }]]);
    expect(router.push).not.toHaveBeenCalled();
  });

  it("the pages keep the filters and the sort", async () => {
    const { user } = renderIslands({ status: ["review"], per_page: 20, page: 2 });
    await user.click(screen.getByRole("button", { name: "Next page" }));
    await user.click(screen.getByRole("button", { name: "Previous page" }));
    expect(router.push.mock.calls.map(([href]) => href)).toEqual([
      "/verifications?status=review&page=3&sort=-risk_score",
      "/verifications?status=review&sort=-risk_score",
    ]);
  });
});
