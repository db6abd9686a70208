import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { AuditPageClient } from "@/app/(dashboard)/admin/audit/page-client";
import type { AuditFilters as Filters } from "@/lib/audit-trail/filters";
import { currentUrl, mockApi, renderWithProviders } from "@/test/render";

import { AuditFilters } from "./audit-filters";

/*
 * The audit log's filters: what Apply hands the page, each refusal named on its field (a bad CPF, a CPF with
 * a target, a range the wrong way round), and, through the audit page, that the filters land in the URL while
 * a searched CPF never does: it travels in a header.
 */

const VALID_CPF = "52998224725";

function renderFilters(filters: Filters = {}, cpf: string | null = null) {
  const onApply = vi.fn();
  const view = renderWithProviders(
    <AuditFilters filters={filters} cpf={cpf} actions={["verification.view", "lookup.cpf_receita"]} onApply={onApply} />,
  );
  return { onApply, form: screen.getByRole("form", { name: "Filter events" }), ...view };
}

const CONNECTIONS = [
  { id: "primary", name: "Sandbox" },
  { id: "production", name: "Produção (sandbox)" },
];

describe("AuditFilters", () => {
  it("applies who, action, result, target type and target, trimmed and without the empty ones", async () => {
    const { user, onApply, form } = renderFilters();
    await user.type(within(form).getByLabelText("Who (email)"), "analyst@example.test");
    await user.type(within(form).getByLabelText("Action"), " verification.view ");
    await user.selectOptions(within(form).getByRole("combobox", { name: "Result" }), "Denied");
    await user.selectOptions(within(form).getByRole("combobox", { name: "Target type" }), "verification");
    await user.type(within(form).getByLabelText("Target"), "ver-123");
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));

    expect(onApply).toHaveBeenCalledWith(
      { actor: "analyst@example.test", action: "verification.view", outcome: "denied", target_type: "verification", target: "ver-123" },
      null,
    );
  });

  it("formats a CPF as it is typed and applies its digits apart from the filters", async () => {
    const { user, onApply, form } = renderFilters();
    const cpf = within(form).getByLabelText("Search by CPF");
    await user.type(cpf, VALID_CPF);
    expect(cpf).toHaveValue("529.982.247-25");
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(onApply).toHaveBeenCalledWith({}, VALID_CPF);
  });

  it("names an invalid CPF on its field and applies nothing", async () => {
    const { user, onApply, form } = renderFilters();
    const cpf = within(form).getByLabelText("Search by CPF");
    await user.type(cpf, "52998224724");
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(cpf).toHaveAttribute("aria-invalid", "true");
    expect(cpf).toHaveAccessibleDescription(expect.stringContaining("Enter a valid CPF (11 digits with correct check digits)."));
    expect(within(form).getByRole("alert")).toHaveTextContent("Enter a valid CPF");
    expect(onApply).not.toHaveBeenCalled();
  });

  it("refuses a CPF and a target together, naming both fields", async () => {
    const { user, onApply, form } = renderFilters();
    await user.type(within(form).getByLabelText("Search by CPF"), VALID_CPF);
    await user.type(within(form).getByLabelText("Target"), "ver-123");
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    for (const field of ["Search by CPF", "Target"]) {
      expect(within(form).getByLabelText(field)).toHaveAttribute("aria-invalid", "true");
      expect(within(form).getByLabelText(field)).toHaveAccessibleDescription(
        expect.stringContaining("Search either by CPF or by target, not both."),
      );
    }
    expect(onApply).not.toHaveBeenCalled();
  });

  it("refuses a range whose start is after its end", async () => {
    const { user, onApply, form } = renderFilters({ from: "2026-03-09T10:00", to: "2026-03-01T10:00" });
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(within(form).getByRole("alert")).toHaveTextContent("“From” must be before “To”.");
    expect(within(form).getByLabelText("From")).toHaveAttribute("aria-invalid", "true");
    expect(onApply).not.toHaveBeenCalled();
  });

  it("shows a date-only filter from a link as the whole day", () => {
    const { form } = renderFilters({ from: "2026-03-01", to: "2026-03-02" });
    expect(within(form).getByLabelText("From")).toHaveValue("2026-03-01T00:00");
    expect(within(form).getByLabelText("To")).toHaveValue("2026-03-02T23:59");
  });

  it("Clear filters clears everything, the CPF too", async () => {
    const { user, onApply, form } = renderFilters({ actor: "analyst@example.test" }, VALID_CPF);
    await user.click(within(form).getByRole("button", { name: "Clear filters" }));
    expect(onApply).toHaveBeenCalledWith({}, null);
  });
});

const emptyPage = { events: [], staff: {}, nextCursor: null };

describe("The audit page's filters and the URL", () => {
  it("puts the filters in the URL and the CPF in a header, never in the URL", async () => {
    const api = mockApi({ "GET /api/audit": emptyPage });
    const { user } = renderWithProviders(<AuditPageClient actions={[]} connections={CONNECTIONS} serverError={null} />, {
      url: "/admin/audit",
    });
    await waitFor(() => expect(api.callsTo("GET /api/audit")).toHaveLength(1));
    const form = screen.getByRole("form", { name: "Filter events" });
    await user.type(within(form).getByLabelText("Action"), "verification.view");
    await user.type(within(form).getByLabelText("Search by CPF"), VALID_CPF);
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));

    expect(currentUrl()).toBe("/admin/audit?action=verification.view");
    await waitFor(() => expect(api.callsTo("GET /api/audit")).toHaveLength(2));
    const [, filtered] = api.callsTo("GET /api/audit");
    expect(filtered?.query.get("action")).toBe("verification.view");
    expect(filtered?.headers.get("x-search-cpf")).toBe(VALID_CPF);
    expect(api.calls.some((call) => call.url.includes(VALID_CPF))).toBe(false);
    expect(screen.getByText(/^Searching by CPF/)).not.toHaveTextContent(VALID_CPF);
  });

  it("filters by the connection events were recorded under, by its name, with the id in the URL", async () => {
    const api = mockApi({ "GET /api/audit": emptyPage });
    const { user } = renderWithProviders(<AuditPageClient actions={[]} connections={CONNECTIONS} serverError={null} />, {
      url: "/admin/audit",
    });
    await waitFor(() => expect(api.callsTo("GET /api/audit")).toHaveLength(1));
    const form = screen.getByRole("form", { name: "Filter events" });
    await user.selectOptions(within(form).getByLabelText("Connection"), "Produção (sandbox)");
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(currentUrl()).toBe("/admin/audit?in_connection=production");
    await waitFor(() => expect(api.callsTo("GET /api/audit")).toHaveLength(2));
    expect(api.callsTo("GET /api/audit")[1]?.query.get("in_connection")).toBe("production");
  });

  it("a URL with a filter the page does not take names it, and fetches nothing", async () => {
    const api = mockApi({ "GET /api/audit": emptyPage });
    renderWithProviders(<AuditPageClient actions={[]} connections={CONNECTIONS} serverError={null} />, { url: "/admin/audit?colour=blue" });
    const title = await screen.findByText("These filters are not valid");
    const problems = within(title.closest("[role=alert]") as HTMLElement).getAllByRole("listitem");
    expect(problems.map((item) => item.textContent)).toEqual(["colour: is not a filter of this page"]);
    expect(api.callsTo("GET /api/audit")).toHaveLength(0);
  });
});
