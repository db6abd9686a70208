import { describe, expect, it } from "vitest";

import { wallTimeToInstant } from "@/lib/shared/time-zone";

import { auditFiltersToSearchParams, auditParamsFromSearchParams, compactFilters, parseAuditFilters, parseAuditListQuery } from "./filters";
import { timeRange } from "./time-range";

const parse = (query: string) => parseAuditListQuery(auditParamsFromSearchParams(new URLSearchParams(query)));
const fieldsOf = (query: string) => {
  const result = parse(query);
  return result.ok ? [] : result.problems.map((problem) => problem.field);
};

describe("audit filters", () => {
  it("accepts every filter, drops empty ones, and round-trips through the query string", () => {
    const result = parse(
      "actor=Ana@Example.com&action=lookup.cpf&target_type=cpf&target=***.982.247-**&outcome=denied&from=2026-03-01&to=2026-03-10T18:30&limit=20&cursor=abc_-1&format=csv&extra=",
    );
    expect(result.ok && result.value).toMatchObject({ limit: 20, cursor: "abc_-1", format: "csv" });
    const filters = compactFilters(result.ok ? result.value : {});
    expect(filters).toEqual({
      actor: "Ana@Example.com",
      action: "lookup.cpf",
      target_type: "cpf",
      target: "***.982.247-**",
      outcome: "denied",
      from: "2026-03-01",
      to: "2026-03-10T18:30",
    });
    expect(auditFiltersToSearchParams(filters).toString()).toBe(
      "actor=Ana%40Example.com&action=lookup.cpf&target_type=cpf&target=***.982.247-**&outcome=denied&from=2026-03-01&to=2026-03-10T18%3A30",
    );
  });

  it("names unknown parameters and bad values", () => {
    expect(parse("status=approved")).toEqual({
      ok: false,
      problems: [{ field: "status", message: "is not accepted", code: "not_accepted" }],
    });
    // The page's own parse takes the filters only: paging and format belong to the API.
    expect(parseAuditFilters({ limit: "20" }).ok).toBe(false);
    expect(parseAuditFilters({ actor: " ana@example.com " })).toEqual({ ok: true, value: { actor: "ana@example.com" } });
    expect(fieldsOf("action=a&action=b")).toEqual(["action"]);
    expect(fieldsOf("outcome=maybe")).toEqual(["outcome"]);
    expect(fieldsOf("from=2026-02-30")).toEqual(["from"]);
    expect(fieldsOf("to=yesterday")).toEqual(["to"]);
    expect(fieldsOf("to=2026-03-01T25:00")).toEqual(["to"]);
    expect(fieldsOf("action=DROP TABLE")).toEqual(["action"]);
    expect(fieldsOf("limit=0")).toEqual(["limit"]);
    expect(fieldsOf("limit=1000")).toEqual(["limit"]);
    expect(fieldsOf("limit=1e2")).toEqual(["limit"]);
    expect(fieldsOf("cursor=../../etc")).toEqual(["cursor"]);
  });

  it("refuses a CPF in the URL, naming the header to use instead", () => {
    const result = parse("cpf=52998224725");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.field)).toEqual(["cpf"]);
    expect(result.problems[0]!.message).toContain("x-search-cpf");
  });

  it("refuses an unmasked CPF as a target, pointing to the CPF search", () => {
    expect(fieldsOf("target=52998224725")).toEqual(["target"]);
    expect(fieldsOf("target=529.982.247-25")).toEqual(["target"]);
    expect(fieldsOf("target=***.982.247-**")).toEqual([]);
  });

  it("refuses an actor that is not an email or a staff id", () => {
    expect(fieldsOf("actor=ana")).toEqual(["actor"]);
    expect(fieldsOf("actor=0b0e3a52-9f6d-4d55-9a53-0d7c0f4f1a01")).toEqual(["actor"]);
    expect(fieldsOf("actor=ana@example.com")).toEqual([]);
  });
});

describe("time range", () => {
  const zone = "America/Sao_Paulo";

  it("reads wall-clock times in the display time zone", () => {
    expect(wallTimeToInstant("2026-03-10T09:05:00", zone).toISOString()).toBe("2026-03-10T12:05:00.000Z");
    expect(wallTimeToInstant("2026-07-01T00:00:00", "Europe/Lisbon").toISOString()).toBe("2026-06-30T23:00:00.000Z");
    expect(wallTimeToInstant("2026-01-15T00:00:00", "Europe/Lisbon").toISOString()).toBe("2026-01-15T00:00:00.000Z");
  });

  it("covers whole days and whole minutes at the end, and takes instants as given", () => {
    expect(timeRange({ from: "2026-03-10", to: "2026-03-10" }, zone)).toEqual({
      from: new Date("2026-03-10T03:00:00.000Z"),
      toExclusive: new Date("2026-03-11T03:00:00.000Z"),
    });
    expect(timeRange({ from: "2026-03-10T09:05", to: "2026-03-10T09:07" }, zone)).toEqual({
      from: new Date("2026-03-10T12:05:00.000Z"),
      toExclusive: new Date("2026-03-10T12:08:00.000Z"),
    });
    expect(timeRange({ from: "2026-03-10T12:00:00Z", to: "2026-03-10T12:00:00.500+00:00" }, zone)).toEqual({
      from: new Date("2026-03-10T12:00:00.000Z"),
      toExclusive: new Date("2026-03-10T12:00:00.501Z"),
    });
    expect(timeRange({}, zone)).toEqual({});
  });
});
