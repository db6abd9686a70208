import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { VerificationsPageClient } from "@/app/(dashboard)/verifications/(list)/page-client";
import type { VerificationFilters as Filters } from "@/lib/upstream/model/verification-query";
import { currentUrl, mockApi, renderWithProviders } from "@/test/render";

import { VerificationFilters } from "./verification-filters";

/*
 * The verification list's filters: what Apply hands the page, the date range refused before anything is
 * applied, and, through the list page, that an applied filter lands in the URL and a URL the dashboard cannot
 * use is named field by field.
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

const emptyList = { items: [], pagination: { page: 1, perPage: 20, total: 0, totalPages: 0 }, pagingAvailable: true };

describe("The verification list's filters and the URL", () => {
  it("applying filters puts them in the URL and asks the API for that view", async () => {
    const api = mockApi({ "GET /api/verifications": emptyList });
    const { user } = renderWithProviders(<VerificationsPageClient maxPerPage={100} serverError={null} />, { url: "/verifications" });
    await waitFor(() => expect(api.callsTo("GET /api/verifications")).toHaveLength(1));
    const form = await openFilters(user);
    await user.click(within(form).getByRole("checkbox", { name: "Approved" }));
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));

    expect(currentUrl()).toBe("/verifications?status=approved");
    await waitFor(() => expect(api.callsTo("GET /api/verifications")).toHaveLength(2));
    expect(api.callsTo("GET /api/verifications")[1]?.query.get("status")).toBe("approved");
  });

  it("a URL with a filter the dashboard does not accept names it, and fetches nothing", async () => {
    const api = mockApi({ "GET /api/verifications": emptyList });
    renderWithProviders(<VerificationsPageClient maxPerPage={100} serverError={null} />, {
      url: "/verifications?from=2026-03-09&to=2026-03-01",
    });
    const alert = await screen.findByText("These filters cannot be used");
    const problems = within(alert.closest("[role=alert]") as HTMLElement).getAllByRole("listitem");
    expect(problems.map((item) => item.textContent)).toEqual(["from: this value is not valid"]);
    expect(api.callsTo("GET /api/verifications")).toHaveLength(0);
  });
});
