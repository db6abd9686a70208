import { describe, expect, it } from "vitest";

import { wallTimeToInstant } from "@/lib/time-zone";

import { auditFiltersToSearchParams, auditListQuerySchema, auditParamsFromSearchParams, compactFilters, timeRange } from "./filters";

const parse = (query: string) => auditListQuerySchema.safeParse(auditParamsFromSearchParams(new URLSearchParams(query)));
const fieldsOf = (query: string) => {
  const result = parse(query);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
};

describe("audit filters", () => {
  it("accepts every filter, drops empty ones, and round-trips through the query string", () => {
    const result = parse(
      "actor=Ana@Example.com&action=lookup.cpf&target_type=cpf&target=***.982.247-**&outcome=denied&from=2026-03-01&to=2026-03-10T18:30&limit=20&cursor=abc_-1&format=csv&extra=",
    );
    expect(result.success).toBe(true);
    const filters = compactFilters(result.data!);
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
    expect(fieldsOf("status=approved")).toEqual([""]);
    expect(fieldsOf("outcome=maybe")).toEqual(["outcome"]);
    expect(fieldsOf("from=2026-02-30")).toEqual(["from"]);
    expect(fieldsOf("to=yesterday")).toEqual(["to"]);
    expect(fieldsOf("to=2026-03-01T25:00")).toEqual(["to"]);
    expect(fieldsOf("action=DROP TABLE")).toEqual(["action"]);
    expect(fieldsOf("limit=0")).toEqual(["limit"]);
    expect(fieldsOf("limit=1000")).toEqual(["limit"]);
    expect(fieldsOf("cursor=../../etc")).toEqual(["cursor"]);
  });

  it("refuses a CPF in the URL, naming the header to use instead", () => {
    const result = parse("cpf=52998224725");
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(["cpf"]);
    expect(result.error!.issues[0]!.message).toContain("x-search-cpf");
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
