import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as auditLog } from "@/app/api/audit/route";
import { recordEvent } from "@/lib/audit-trail/server";
import { AGE_BUCKETS, RECOMMENDATIONS } from "@/lib/cases/rules";
import { cases } from "@/lib/cases/server/tables";
import { ratesOf, STATUSES } from "@/lib/overview/figures";
import { parseOverviewPeriod, todayIn } from "@/lib/overview/period";
import { loadOverview } from "@/lib/overview/server/overview";
import { OVERVIEW_TABLES, type OverviewTable } from "@/lib/overview/tables";
import { type Overview } from "@/lib/overview/types";
import { startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

import { GET as exportCsv } from "./route";

/*
 * One overview table as CSV, against a real sandbox and database: every table holds the numbers the page's
 * own loader gives for the same period, headed in the caller's language; bad input is refused by name before
 * the service is called; each export is on the trail with its table and period; cells cannot run as formulas.
 */

let h: PartnersHarness;
const BASE = "http://localhost:3000/api/overview/export";
const TZ = "America/Sao_Paulo";
const HOUR = 3_600_000;
// A final status as the service could send it, shaped to run as a spreadsheet formula: it reaches the
// outcomes table's header.
const FORMULA_STATUS = '=HYPERLINK("http://evil.example","x")';
// One that becomes a formula only where a semicolon splits fields (Excel set to pt-BR).
const SEMICOLON_STATUS = "rejected;=1+1";

beforeAll(async () => {
  h = await startPartnersHarness({ DISPLAY_TIME_ZONE: TZ });
  const now = Date.now();
  const at = (hours: number) => new Date(now - hours * HOUR);
  let n = 0;
  const add = (fields: Partial<typeof cases.$inferInsert>) =>
    h.db.db.insert(cases).values({ publicId: `ovx-case-${(n += 1)}`, upstreamStatus: "review", dueAt: at(-24), ...fields });
  await add({ openedAt: at(2) });
  await add({ openedAt: at(30), dueAt: at(6) });
  await add({ openedAt: at(200), dueAt: at(176) });
  await add({
    status: "closed",
    openedAt: at(60),
    dueAt: at(36),
    closedAt: at(40),
    recommendation: "approve",
    outcomeState: "confirmed",
    finalStatus: "approved",
  });
  await add({
    status: "closed",
    openedAt: at(30),
    dueAt: at(6),
    closedAt: at(10),
    recommendation: "reprove",
    outcomeState: "confirmed",
    finalStatus: "approved",
    disagreement: true,
  });
  await recordEvent({ actor: null, action: "lookup.cpf_receita", outcome: "success" }, h.db.db);
  await add({
    status: "closed",
    openedAt: at(30),
    dueAt: at(6),
    closedAt: at(12),
    recommendation: "escalate",
    outcomeState: "confirmed",
    finalStatus: FORMULA_STATUS,
  });
  await add({
    status: "closed",
    openedAt: at(30),
    dueAt: at(6),
    closedAt: at(11),
    recommendation: "escalate",
    outcomeState: "confirmed",
    finalStatus: SEMICOLON_STATUS,
  });
});
afterAll(async () => {
  await h?.dispose();
});
beforeEach(async () => {
  await h.sandbox.clearFaults();
  await h.sandbox.clearRequests();
});

/** RFC 4180 records (the writer quotes cells holding a comma, quote or line break). */
function parseCsv(text: string): string[][] {
  return text
    .split("\r\n")
    .filter(Boolean)
    .map((line) =>
      [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map(([, cell = ""]) => cell.replace(/^"|"$/g, "").replace(/""/g, '"')),
    );
}

async function download(
  table: string,
  query = "days=7",
  headers: Record<string, string> = { "accept-language": "en" },
  cookie = h.analystCookie,
) {
  const response = await exportCsv(h.request(`${BASE}?table=${table}&${query}`, { cookie, headers }));
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { response, bytes, rows: parseCsv(new TextDecoder().decode(bytes)) };
}

async function pageOverview(): Promise<Overview> {
  const parsed = parseOverviewPeriod(new URLSearchParams({ days: "7" }), todayIn(TZ));
  if (!parsed.ok) throw new Error("bad period");
  return loadOverview(parsed.period, { db: h.db.db });
}

/** The numbers of each table as the page has them, in the table's row order (labels left out). */
function pageNumbers(overview: Overview, table: OverviewTable): Array<Array<number | string | null>> {
  if (!overview.verifications.ok || !overview.cases.ok || !overview.activity.ok) throw new Error("a panel failed");
  const counts = overview.verifications.data;
  const figures = overview.cases.data;
  const activity = overview.activity.data;
  const actions = [...activity.lookupActions, ...activity.exportActions];
  const share = (value: number) => (counts.total === 0 ? null : value / counts.total);
  const finals = [...new Set(figures.outcomes.map((row) => row.finalStatus))].sort();
  switch (table) {
    case "by_status":
      return [
        ...STATUSES.map((status) => [counts.byStatus[status], share(counts.byStatus[status])]),
        ...(counts.other > 0 ? [[counts.other, share(counts.other)]] : []),
        [counts.total, share(counts.total)],
      ];
    case "rates": {
      const rates = ratesOf(counts.byStatus);
      return [[counts.total], [rates.analysed], [rates.approval], [rates.review], [rates.reproval]];
    }
    case "daily":
      return counts.days.map((day) => [day.day, ...STATUSES.map((status) => day.byStatus[status]), day.total]);
    case "backlog":
      return AGE_BUCKETS.map((bucket) => [figures.backlog[bucket]]);
    case "sla":
      return [[figures.open], [figures.overdue], [figures.closedInPeriod], [figures.closedLate]];
    case "outcomes":
      return RECOMMENDATIONS.map((recommendation) =>
        finals.map(
          (finalStatus) =>
            figures.outcomes.find((row) => row.recommendation === recommendation && row.finalStatus === finalStatus)?.count ?? 0,
        ),
      );
    case "activity":
      return [
        ...activity.days.map((day) => [day.day, ...actions.map((action) => day.counts[action] ?? 0)]),
        actions.map((action) => activity.days.reduce((sum, day) => sum + (day.counts[action] ?? 0), 0)),
      ];
  }
}

/** The CSV's numbers in the same shape: the label column dropped (a day stays: it is the page's key too). */
function csvNumbers(table: OverviewTable, rows: string[][]): Array<Array<number | string | null>> {
  const number = (cell: string) => (cell === "" ? null : /^\d{4}-\d{2}-\d{2}$/.test(cell) ? cell : Number(cell));
  const body = rows.slice(1);
  if (table === "daily") return body.map((row) => row.map(number));
  if (table === "activity") return body.map((row, index) => (index < body.length - 1 ? row : row.slice(1)).map(number));
  // backlog and sla carry the "as of" instant last.
  const trimmed = table === "backlog" || table === "sla" ? body.map((row) => row.slice(0, -1)) : body;
  return trimmed.map((row) => row.slice(1).map(number));
}

describe("GET /api/overview/export", () => {
  it.each(OVERVIEW_TABLES)("%s: the page's numbers for the same period, as a formula-safe CSV", async (table) => {
    // The page first: the export's own event counts among the period's exports once it is recorded.
    const page = await pageOverview();
    const { response, bytes, rows } = await download(table);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="overview-${table}-\\d{4}-\\d{2}-\\d{2}-`),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(response.headers.get("x-total-count")).toBe(String(rows.length - 1));
    expect(csvNumbers(table, rows)).toEqual(pageNumbers(page, table));
    // No cell (header included) starts as a formula would.
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@]/);
  });

  it("has real numbers to compare: verifications in the period, cases and activity on the page", async () => {
    const overview = await pageOverview();
    expect(overview.verifications.ok && overview.verifications.data.total).toBeGreaterThan(0);
    expect(overview.cases.ok && overview.cases.data.open).toBe(3);
    expect(overview.cases.ok && overview.cases.data.outcomes.length).toBeGreaterThan(0);
  });

  it("heads each table in the caller's language, and writes the backlog's instant in the display time zone", async () => {
    const english = await download("by_status");
    expect(english.rows[0]).toEqual(["Status", "Verifications", "Share"]);
    expect(english.rows.at(-1)?.[0]).toBe("Total");
    const portuguese = await download("by_status", "days=7", { "accept-language": "en" }, `${h.analystCookie}; NEXT_LOCALE=pt-BR`);
    expect(portuguese.rows[0]).toEqual(["Status", "Verificações", "Fração"]);
    expect(portuguese.rows.at(-1)?.[0]).toBe("Total");
    const backlog = await download("backlog");
    expect(backlog.rows[0]).toEqual(["Age", "Open cases", "As of"]);
    expect(backlog.rows[1]?.[2]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
  });

  it("writes text from the service whole and quoted, never at the start of a cell", async () => {
    const { bytes, rows } = await download("outcomes");
    expect(rows[0]).toContain(`Final: ${FORMULA_STATUS}`);
    // Quotes doubled, the cell quoted: the comma inside does not split it.
    expect(new TextDecoder().decode(bytes)).toContain(`"Final: =HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it("guards text from the service holding a semicolon, so no field starts a formula when split on it", async () => {
    const { bytes, rows } = await download("outcomes");
    expect(rows[0]).toContain("Final: rejected;'=1+1");
    for (const line of new TextDecoder().decode(bytes).split("\r\n"))
      for (const field of line.split(/[,;\t]/)) expect(field.replace(/^[\s"]+/, ""), line).not.toMatch(/^[=+\-@]/);
  });

  it.each([
    ["table=nope&days=7", ["table"]],
    ["days=7", ["table"]],
    ["table=daily&days=9", ["days"]],
    ["table=daily&from=2026-03-10&to=2026-01-01", ["from"]],
    ["table=nope&from=yesterday", ["table", "from"]],
    ["table=daily&days=7&status=review", ["status"]],
  ])("refuses %s by name, before any upstream call", async (query, fields) => {
    const response = await exportCsv(h.request(`${BASE}?${query}`, { cookie: h.analystCookie }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { fields?: string[] } };
    expect(body.error.fields).toEqual(fields);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("records each export with its table and period, and nothing personal", async () => {
    const { response } = await download("daily", "from=2026-03-01&to=2026-03-05");
    expect(response.status).toBe(200);
    const trail = await auditLog(h.request("http://localhost:3000/api/audit?action=overview.export", { cookie: h.adminCookie }));
    const { events } = (await trail.json()) as {
      events: Array<{ outcome: string; target: string | null; details: Record<string, unknown> }>;
    };
    expect(events[0]).toMatchObject({
      outcome: "success",
      target: null,
      details: { table: "daily", from: "2026-03-01", to: "2026-03-05", format: "csv", rows: 5 },
    });
  });

  it("answers an upstream refusal as an error, recorded as a failed export", async () => {
    await h.sandbox.setFaults({ path_prefix: "/core", error_rate: 1, status: 503 });
    const response = await exportCsv(h.request(`${BASE}?table=rates&from=2026-02-01&to=2026-02-03`, { cookie: h.analystCookie }));
    expect(response.status).toBe(503);
    const trail = await auditLog(h.request("http://localhost:3000/api/audit?action=overview.export", { cookie: h.adminCookie }));
    const { events } = (await trail.json()) as { events: Array<{ outcome: string; details: Record<string, unknown> }> };
    expect(events[0]).toMatchObject({ outcome: "failure", details: { table: "rates", from: "2026-02-01", to: "2026-02-03" } });
  });

  it("refuses anonymous callers", async () => {
    const response = await exportCsv(h.request(`${BASE}?table=daily&days=7`));
    expect(response.status).toBe(401);
  });
});
