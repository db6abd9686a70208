import { describe, expect, it } from "vitest";

import { MAX_PERIOD_DAYS, parseOverviewPeriod, todayIn } from "./period";

const TODAY = "2026-11-23";
const parse = (query: string) => parseOverviewPeriod(new URLSearchParams(query), TODAY);

describe("parseOverviewPeriod", () => {
  it("defaults to the last 30 days, today included", () => {
    const result = parse("");
    expect(result).toMatchObject({ ok: true, period: { from: "2026-10-25", to: TODAY, preset: 30 } });
    if (result.ok) expect(result.period.days).toHaveLength(30);
  });

  it("reads a preset and a custom range across a month end", () => {
    expect(parse("days=7")).toMatchObject({ ok: true, period: { from: "2026-11-17", to: TODAY, preset: 7 } });
    const custom = parse("from=2026-02-27&to=2026-03-02");
    expect(custom.ok && custom.period.days).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    expect(custom.ok && custom.period.preset).toBeNull();
  });

  it("names every refused parameter", () => {
    expect(parse("days=9")).toEqual({ ok: false, problems: [{ field: "days", message: "must be one of 7, 30" }] });
    expect(parse("from=2026-02-30")).toMatchObject({ ok: false, problems: [{ field: "from" }] });
    expect(parse("status=approved")).toEqual({
      ok: false,
      problems: [{ field: "status", code: "not_accepted", message: "is not accepted" }],
    });
    expect(parse("days=7&from=2026-11-01")).toMatchObject({ ok: false, problems: [{ field: "days" }] });
    expect(parse("from=2026-11-10&to=2026-11-01")).toMatchObject({ ok: false, problems: [{ field: "from" }] });
  });

  it(`refuses a period longer than ${MAX_PERIOD_DAYS} days, which would cost too many count calls`, () => {
    expect(parse("from=2026-10-01&to=2026-10-31").ok).toBe(true);
    expect(parse("from=2026-10-01&to=2026-11-01")).toMatchObject({ ok: false, problems: [{ field: "from" }] });
  });

  it("takes today in the display time zone, not in UTC", () => {
    // 01:30 UTC on the 24th is still the 23rd in São Paulo (UTC-3).
    expect(todayIn("America/Sao_Paulo", new Date("2026-11-24T01:30:00Z"))).toBe("2026-11-23");
    expect(todayIn("UTC", new Date("2026-11-24T01:30:00Z"))).toBe("2026-11-24");
  });
});
