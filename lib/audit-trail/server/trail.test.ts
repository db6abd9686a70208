import { beforeAll, expect, it } from "vitest";

import { cpfHashes } from "@/lib/audit-trail/server/record";
import { timeRange } from "@/lib/audit-trail/time-range";
import { BRUNO, CPF_A, CPF_B, minutes, trailSuite } from "@/test/audit-trail-events";
import { describeEachDatabase, type TestDatabase } from "@/test/db";

import { iterateAuditEvents, listAuditEvents, type AuditEventFilter } from "./query";

// Reading the trail: newest first, a cursor that neither skips nor repeats, filters, the CPF search, the export's batches.

describeEachDatabase("audit trail on $name", ({ open }) => {
  const suite = trailSuite(open);
  let handle: TestDatabase;
  let labelOf: Map<number, string>;
  beforeAll(() => {
    ({ handle, labelOf } = suite.trail);
  });

  // Newest first by (at, id); e10 and e11 share a millisecond, so the larger id comes first.
  const ALL_NEWEST_FIRST = ["e12", "e11", "e10", "e8", "e9", "e7", "e6", "e5", "e4", "e3", "e2", "e1"];

  async function labels(filter: AuditEventFilter, limit = 100): Promise<string[]> {
    const page = await listAuditEvents(handle.db, filter, { limit });
    return page.events.map((event) => labelOf.get(event.id)!);
  }

  async function allPages(filter: AuditEventFilter, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 50; guard += 1) {
      const page = await listAuditEvents(handle.db, filter, { limit, cursor });
      seen.push(...page.events.map((event) => labelOf.get(event.id)!));
      if (!page.nextCursor) return seen;
      cursor = page.nextCursor;
    }
    throw new Error("pagination did not end");
  }

  it("lists newest first and pages with a cursor without skipping or repeating an event", async () => {
    expect(await labels({})).toEqual(ALL_NEWEST_FIRST);
    for (const size of [1, 2, 3, 5, 12, 13]) expect(await allPages({}, size)).toEqual(ALL_NEWEST_FIRST);
    const last = await listAuditEvents(handle.db, {}, { limit: 12 });
    expect(last.nextCursor).toBeNull();
  });

  it("filters by actor (email, any case, or staff id), action, outcome, target and target type exactly", async () => {
    expect(await labels({ actor: "ana@example.com" })).toEqual(["e11", "e8", "e9", "e6", "e2", "e1"]);
    expect(await labels({ actor: "BRUNO@Example.com" })).toEqual(["e12", "e10", "e7", "e4", "e3"]);
    expect(await labels({ actor: BRUNO.id })).toEqual(["e12", "e10", "e7", "e4", "e3"]);
    expect(await labels({ actor: "nobody@example.com" })).toEqual([]);
    expect(await labels({ action: "lookup.cpf" })).toEqual(["e10", "e3", "e2"]);
    expect(await labels({ action: "auth.sign_in" })).toEqual(["e5", "e1"]);
    expect(await labels({ outcome: "failure" })).toEqual(["e5", "e3"]);
    expect(await labels({ outcome: "denied" })).toEqual(["e7"]);
    expect(await labels({ target: "vrf_001" })).toEqual(["e11", "e9", "e4"]);
    expect(await labels({ targetType: "verification" })).toEqual(["e11", "e8", "e9", "e4"]);
    expect(await labels({ targetType: "integration_key", target: "key-label" })).toEqual(["e12"]);
    // The stored target of a CPF event is the masked CPF: filtering on it matches, and never the digits.
    expect(await labels({ target: "***.982.247-**" })).toEqual(["e10", "e6", "e2"]);
    expect(await labels({ target: CPF_A })).toEqual([]);
  });

  it("filters by time range: from inclusive, to exclusive, also combined with other filters", async () => {
    expect(await labels({ from: minutes(8), toExclusive: minutes(10) })).toEqual(["e11", "e10", "e8"]);
    expect(await labels({ from: minutes(9) })).toEqual(["e12", "e11", "e10"]);
    expect(await labels({ toExclusive: minutes(2) })).toEqual(["e2", "e1"]);
    expect(await labels({ actor: "ana@example.com", from: minutes(5), toExclusive: minutes(9) })).toEqual(["e8", "e9", "e6"]);
    // A São Paulo wall-clock range (UTC-3): 09:05 to 09:07 local is 12:05 to 12:08 UTC, whole minute included.
    const range = timeRange({ from: "2026-03-10T09:05", to: "2026-03-10T09:07" }, "America/Sao_Paulo");
    expect(await labels(range)).toEqual(["e9", "e7", "e6"]);
    expect(await allPages({ actor: "ana@example.com", from: minutes(1) }, 2)).toEqual(["e11", "e8", "e9", "e6", "e2"]);
  });

  it("searches by CPF through its keyed hash, returning exactly that CPF's events, and shows it masked", async () => {
    const page = await listAuditEvents(handle.db, { targetHashes: cpfHashes(CPF_A) }, { limit: 50 });
    expect(page.events.map((event) => labelOf.get(event.id))).toEqual(["e10", "e6", "e2"]);
    expect(page.events.every((event) => event.target === "***.982.247-**")).toBe(true);
    expect(JSON.stringify(page)).not.toContain(CPF_A);
    expect(await labels({ targetHashes: cpfHashes("529.982.247-25") })).toEqual(["e10", "e6", "e2"]);
    expect(await labels({ targetHashes: cpfHashes(CPF_B) })).toEqual(["e3"]);
    expect(await labels({ targetHashes: cpfHashes(CPF_B), outcome: "success" })).toEqual([]);
    expect(await labels({ targetHashes: cpfHashes(CPF_A), actor: "bruno@example.com" })).toEqual(["e10"]);
    expect(await labels({ targetHashes: cpfHashes("39053344705") })).toEqual([]);
  });

  it("iterates every matching event in batches for the export", async () => {
    const batches: number[][] = [];
    for await (const batch of iterateAuditEvents(handle.db, { actor: "ana@example.com" }, 4)) batches.push(batch.map((row) => row.id));
    expect(batches.map((batch) => batch.length)).toEqual([4, 2]);
    expect(batches.flat().map((id) => labelOf.get(id))).toEqual(["e11", "e8", "e9", "e6", "e2", "e1"]);
  });

  it("refuses a cursor it did not issue", async () => {
    await expect(listAuditEvents(handle.db, {}, { limit: 5, cursor: "bm90LWEtY3Vyc29y" })).rejects.toThrow(/cursor/);
  });
});
