import { describe, expect, it } from "vitest";

import { GET as auditLog } from "@/app/api/audit/route";
import { GET as getOne } from "@/app/api/verifications/[publicId]/route";
import { POST as create, GET as list } from "@/app/api/verifications/route";
import type { CreateVerificationResponse, VerificationListResponse } from "@/lib/verifications/types";
import { withPartnersHarness } from "@/test/partners-ops";

import { GET as exportCsv } from "./route";

/*
 * The list's CSV export and what the dashboard remembers of a verification it created, against a real
 * sandbox and database: the export streams every page with its total, in the display time zone, on the trail
 * with its filters; a creation's ref_id shows on the list, and the audit page's CPF search finds the person's
 * creation and views.
 */

const h = withPartnersHarness({ UPSTREAM_TIMEOUT_MS: "1500", CORE_MAX_PER_PAGE: "100" }, { clear: "faults and requests" });
const BASE = "http://localhost:3000/api/verifications";

async function auditSearch(query: string, cpf?: string) {
  const response = await auditLog(
    h.request(`http://localhost:3000/api/audit?${query}`, { cookie: h.adminCookie, headers: cpf ? { "x-search-cpf": cpf } : {} }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as { events: Array<{ action: string; target: string | null; details: Record<string, unknown> }> };
}

describe("GET /api/verifications/export", () => {
  it("streams every matching verification across pages, with the total up front and times with the zone's offset", async () => {
    const first = (await (
      await list(h.request(`${BASE}?status=review&per_page=10`, { cookie: h.analystCookie }))
    ).json()) as VerificationListResponse;
    const total = first.pagination.total;
    expect(total).toBeGreaterThan(10);
    await h.sandbox.clearRequests();

    const response = await exportCsv(h.request(`${BASE}/export?status=review&per_page=10&page=3`, { cookie: h.analystCookie }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-total-count")).toBe(String(total));
    const bytes = new Uint8Array(await response.arrayBuffer());
    // UTF-8 with a BOM, so spreadsheet programs read accents right (TextDecoder drops it).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split("\r\n").filter(Boolean);
    expect(lines[0]).toMatch(/^public_id,ref_id,document,document_masked,status,/);
    expect(lines).toHaveLength(total + 1);
    // The list's page size and page do not limit the export: it reads the service's pages at its largest size.
    const pages = (await h.sandbox.requests()).filter((request) => request.path.includes("validations-persons"));
    expect(pages.length).toBe(Math.ceil(total / 100));
    const row = lines[1]!.split(",");
    expect(row[4]).toBe("review");
    expect(row[7]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/);
    // Masked as the key allows: the harness's key lacks the unmasked permission.
    expect(row[2]).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect(row[3]).toBe("yes");

    const trail = await auditSearch("action=verification.export");
    expect(trail.events[0]?.details).toMatchObject({ status: "review", total, complete: true, format: "csv" });
  });

  it("refuses a filter it does not know, naming it, before any upstream call", async () => {
    const response = await exportCsv(h.request(`${BASE}/export?status=review&sort_by=risk`, { cookie: h.analystCookie }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("sort_by");
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses anonymous callers", async () => {
    expect((await exportCsv(h.request(`${BASE}/export`))).status).toBe(401);
  });
});

/** Creates a verification here, as the analyst, for the CPF typed as `cpf`. */
const createFor = (refId: string, cpf: string) =>
  create(
    h.request(BASE, {
      method: "POST",
      cookie: h.analystCookie,
      body: { schemaVersion: "1", refId, document: { type: "cpf", number: cpf } },
    }),
  );

describe("what a creation here leaves behind", () => {
  it("shows the ref_id on the list and tags the creation and every later view with the CPF, so the audit search finds them", async () => {
    const cpf = "39053344705";
    const created = await createFor("UX-REF-42", "390.533.447-05");
    expect(created.status).toBe(201);
    const { publicId } = ((await created.json()) as CreateVerificationResponse).created;
    expect(publicId).toBeTruthy();

    const view = await getOne(h.request(`${BASE}/${publicId}`, { cookie: h.analystCookie }), {
      params: Promise.resolve({ publicId: publicId! }),
    });
    expect(view.status).toBe(200);

    const listed = (await (await list(h.request(`${BASE}?per_page=100`, { cookie: h.analystCookie }))).json()) as VerificationListResponse;
    expect(listed.enrichment?.[publicId!]?.refId).toBe("UX-REF-42");

    const found = await auditSearch("limit=50", "390.533.447-05");
    const about = found.events.filter((event) => event.target === publicId).map((event) => event.action);
    expect(about).toEqual(expect.arrayContaining(["verification.create", "verification.view"]));
    // Another person's CPF finds none of them.
    const other = await auditSearch("limit=50", "529.982.247-25");
    expect(other.events.some((event) => event.target === publicId)).toBe(false);
    // The CPF itself is nowhere in the events.
    expect(JSON.stringify(found)).not.toContain(cpf);
  });

  it("writes a ref_id holding a semicolon so that no field starts a formula when pt-BR Excel splits on it", async () => {
    const created = await createFor("ref;=1+1", "111.444.777-35");
    expect(created.status).toBe(201);
    const { publicId } = ((await created.json()) as CreateVerificationResponse).created;
    const response = await exportCsv(h.request(`${BASE}/export`, { cookie: h.analystCookie }));
    expect(response.status).toBe(200);
    const text = await response.text();
    const line = text.split("\r\n").find((candidate) => candidate.startsWith(`${publicId},`));
    expect(line).toContain(`,"ref;'=1+1",`);
    for (const field of line!.split(/[,;\t]/)) expect(field.replace(/^[\s"]+/, "")).not.toMatch(/^[=+\-@]/);
  });
});
