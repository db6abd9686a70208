import { describe, expect, it } from "vitest";

import { analyticsCsvHref, parseAnalyticsQuery } from "./period";

const TODAY = "2026-03-20";
const parse = (query: string) => parseAnalyticsQuery(new URLSearchParams(query), TODAY);

describe("parseAnalyticsQuery", () => {
  it("defaults to the last 30 days, today included, as JSON", () => {
    expect(parse("")).toEqual({ ok: true, value: { period: { from: "2026-02-19", to: TODAY, days: 30 }, format: "json" } });
    expect(parse("to=2026-03-10")).toEqual({
      ok: true,
      value: { period: { from: "2026-02-09", to: "2026-03-10", days: 30 }, format: "json" },
    });
  });

  it("takes a period of up to 92 days, one day included, and the CSV format", () => {
    expect(parse("from=2026-03-05&to=2026-03-05&format=csv")).toEqual({
      ok: true,
      value: { period: { from: "2026-03-05", to: "2026-03-05", days: 1 }, format: "csv" },
    });
    expect(parse("from=2025-12-19&to=2026-03-20")).toMatchObject({ ok: true, value: { period: { days: 92 } } });
  });

  it("names the field of each refusal: a bad date, from after to, a period too long, an unknown parameter", () => {
    const fields = (query: string) => {
      const parsed = parse(query);
      return parsed.ok ? [] : parsed.problems.map((problem) => problem.field);
    };
    expect(fields("from=2026-02-30")).toEqual(["from"]);
    expect(fields("to=20260301")).toEqual(["to"]);
    expect(fields("from=2026-03-10&to=2026-03-09")).toEqual(["from"]);
    expect(fields("from=2025-12-18&to=2026-03-20")).toEqual(["to"]);
    expect(fields("from=2026-03-01&from=2026-03-02")).toEqual(["from"]);
    expect(fields("days=7")).toEqual(["days"]);
  });
});

describe("analyticsCsvHref", () => {
  it("addresses the route's CSV for the period", () => {
    expect(analyticsCsvHref({ from: "2026-03-01", to: "2026-03-08" })).toBe("/api/analytics/team?from=2026-03-01&to=2026-03-08&format=csv");
  });
});
