import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { AuditLog, type AuditView } from "@/components/audit-trail/audit-log";
import { auditParamsFromSearchParams, parseAuditFilters, type AuditFilters as Filters } from "@/lib/audit-trail/filters";
import type { AuditEventView, AuditPage } from "@/lib/audit-trail/types";
import { currentUrl, mockApi, renderWithProviders, router } from "@/test/render";

import { AuditFilters } from "./audit-filters";

/*
 * The audit log's filters: what Apply hands the page, each refusal named on its field (a bad CPF, a CPF with
 * a target, a range the wrong way round); and the log the server draws: its filters ask the server for the view
 * through the address, a searched CPF never reaches it (fetched in the browser, the CPF in a header), older pages
 * continue the same table.
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

function event(id: number, overrides: Partial<AuditEventView> = {}): AuditEventView {
  return {
    id,
    at: new Date(Date.UTC(2026, 2, 10, 12, 0, 60 - id)).toISOString(),
    actorId: null,
    actorEmail: "admin@example.test",
    action: "verification.view",
    targetType: "verification",
    target: `ver-${id}`,
    purpose: null,
    outcome: "success",
    ip: "127.0.0.1",
    details: {},
    connectionId: null,
    ...overrides,
  };
}

const firstPage: AuditPage = { events: [event(3), event(2)], staff: {}, nextCursor: "after-2" };

function renderLog(url: string, answer: AuditView["answer"] = { page: firstPage }) {
  const params = new URL(url, "http://localhost").searchParams;
  const view: AuditView = { parsed: parseAuditFilters(auditParamsFromSearchParams(params)), query: params.toString(), answer };
  return renderWithProviders(<AuditLog view={view} path="/admin/audit" actions={[]} connections={CONNECTIONS} />, { url });
}

const rowsOf = () =>
  within(screen.getByRole("table", { name: "Audit events, newest first" }))
    .getAllByRole("row")
    .slice(1);

describe("The audit log drawn by the server, its islands and the address", () => {
  it("draws the first page with no request, and applying filters asks the server for the view as a history entry", async () => {
    const api = mockApi({});
    const { user } = renderLog("/admin/audit");
    expect(rowsOf().map((row) => row.getAttribute("data-event-id"))).toEqual(["3", "2"]);
    const form = screen.getByRole("form", { name: "Filter events" });
    await user.selectOptions(within(form).getByLabelText("Connection"), "Produção (sandbox)");
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(router.push.mock.calls).toEqual([["/admin/audit?in_connection=production", { scroll: false }]]);
    expect(api.calls).toEqual([]);
    // The same view again is drawn afresh, with no history entry.
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));
    expect(router.refresh).toHaveBeenCalledTimes(1);
    expect(router.push).toHaveBeenCalledTimes(1);
  });

  it("a search by CPF is fetched in the browser with the CPF in a header, the address taking the other filters only", async () => {
    const api = mockApi({
      "GET /api/audit": { events: [event(9, { target: "***.982.247-**", targetType: "cpf" })], staff: {}, nextCursor: null },
    });
    const { user } = renderLog("/admin/audit");
    const form = screen.getByRole("form", { name: "Filter events" });
    await user.type(within(form).getByLabelText("Action"), "verification.view");
    await user.type(within(form).getByLabelText("Search by CPF"), VALID_CPF);
    await user.click(within(form).getByRole("button", { name: "Apply filters" }));

    expect(currentUrl()).toBe("/admin/audit?action=verification.view");
    expect(router.push).not.toHaveBeenCalled();
    await waitFor(() => expect(rowsOf().map((row) => row.getAttribute("data-event-id"))).toEqual(["9"]));
    const [search] = api.callsTo("GET /api/audit");
    expect(search?.query.get("action")).toBe("verification.view");
    expect(search?.headers.get("x-search-cpf")).toBe(VALID_CPF);
    expect(api.calls.some((call) => call.url.includes(VALID_CPF))).toBe(false);
    expect(screen.getByText(/^Searching by CPF/)).not.toHaveTextContent(VALID_CPF);
    expect(screen.getByText("1 event shown · No older events match.")).toBeInTheDocument();

    // Leaving the search: the server draws the view the address names.
    await user.click(within(form).getByRole("button", { name: "Clear filters" }));
    expect(router.push.mock.calls).toEqual([["/admin/audit", { scroll: false }]]);
    expect(screen.queryByText(/^Searching by CPF/)).toBeNull();
  });

  it("Load older events continues after the server's page, in the same table, with the view's filters", async () => {
    const api = mockApi({ "GET /api/audit": { events: [event(1)], staff: {}, nextCursor: null } });
    const { user } = renderLog("/admin/audit?outcome=success");
    expect(screen.getByText("2 events shown · Older events match too.")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Load older events" }));
    await waitFor(() => expect(rowsOf().map((row) => row.getAttribute("data-event-id"))).toEqual(["3", "2", "1"]));
    const [older] = api.callsTo("GET /api/audit");
    expect(older?.query.get("cursor")).toBe("after-2");
    expect(older?.query.get("outcome")).toBe("success");
    expect(screen.getByText("3 events shown · No older events match.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Load older events" })).toBeNull();
  });

  it("a page view's events are one row that opens onto them", async () => {
    mockApi({});
    const opened = [3, 2].map((id) => event(id, { details: { pageView: "pv-1" } }));
    const { user } = renderLog("/admin/audit", { page: { events: opened, staff: {}, nextCursor: null } });
    const toggle = screen.getByRole("button", { expanded: false });
    const ids = toggle.getAttribute("aria-controls")!.split(" ");
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(document.getElementById(id)).not.toBeVisible();
    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    for (const id of ids) expect(document.getElementById(id)).toBeVisible();
  });

  it("the view's failure on the server is shown with its retry, which asks the server to draw it again", async () => {
    const api = mockApi({});
    const { user } = renderLog("/admin/audit", {
      error: { status: 503, code: "internal", message: "The database did not answer.", retryable: true },
    });
    await user.click(await screen.findByRole("button", { name: "Try again" }));
    expect(router.refresh).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("table")).toBeNull();
    expect(api.calls).toEqual([]);
  });

  it("a URL with a filter the page does not take names it, and fetches nothing", async () => {
    const api = mockApi({});
    renderLog("/admin/audit?colour=blue", null);
    const title = await screen.findByText("These filters are not valid");
    const problems = within(title.closest("[role=alert]") as HTMLElement).getAllByRole("listitem");
    expect(problems.map((item) => item.textContent)).toEqual(["colour: is not a filter of this page"]);
    expect(api.calls).toEqual([]);
  });
});
