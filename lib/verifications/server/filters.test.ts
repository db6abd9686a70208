import { describe, expect, it } from "vitest";

import { FILTER_KEYS, isPublicId, VERIFICATION_FILTERS, type VerificationFilters } from "@/lib/upstream/model/verification-query";
import { filtersToUrlQuery, normalizeFilters, parseVerificationFilters } from "@/lib/verifications/rules";

describe("list filters in the URL", () => {
  it("normalises so one view has one key and one address", () => {
    expect(normalizeFilters({ status: ["review", "approved", "review"], page: 1 })).toEqual({
      status: ["approved", "review"],
      per_page: 20,
    });
    expect(filtersToUrlQuery({ status: ["review", "approved"], per_page: 20, page: 2 })).toBe("status=approved%2Creview&page=2");
    expect(filtersToUrlQuery({ per_page: 100 })).toBe("per_page=100");
  });

  it("names every unknown parameter on its own", () => {
    const parsed = parseVerificationFilters(new URLSearchParams("sort=desc&status=review&limit=5"));
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.map((problem) => problem.field)).toEqual(["sort", "limit"]);
  });

  it("round-trips through the address", () => {
    const filters: VerificationFilters = {
      status: ["approved", "review"],
      flow: "default",
      journey: "onboarding",
      from: "2026-10-01",
      to: "2026-10-31",
      per_page: 50,
      page: 3,
    };
    const parsed = parseVerificationFilters(new URLSearchParams(filtersToUrlQuery(filters)));
    expect(parsed).toEqual({ ok: true, filters });
  });
});

describe("public ids", () => {
  it.each(["abc", "a3c1d2e4-0000-4000-8000-000000000001", "A_b-9"])("accepts %s", (id) => expect(isPublicId(id)).toBe(true));
  it.each(["", "..", "a/b", "a%2Fb", "a.b", "a?b", "a#b", "x".repeat(129), " a"])("refuses %j", (id) => expect(isPublicId(id)).toBe(false));
});

describe("list views on the audit trail", () => {
  it("keeps filter values, dropping one the trail would refuse rather than refusing the view", async () => {
    const { listDetails } = await import("./audit-details");
    expect(listDetails({ status: ["review"], flow: "12345678909", from: "2026-10-01", per_page: 20 })).toEqual({
      status: "review",
      flow: null,
      from: "2026-10-01",
      per_page: 20,
      page: 1,
    });
  });

  it("records every defined filter under its dashboard name", async () => {
    const { listDetails } = await import("./audit-details");
    const sample = { statuses: ["review"], token: "default", date: "2026-10-01", count: 2 } as const;
    const filters = Object.fromEntries(FILTER_KEYS.map((key) => [key, sample[VERIFICATION_FILTERS[key].kind]])) as VerificationFilters;
    expect(Object.keys(listDetails(filters)).sort()).toEqual([...FILTER_KEYS].sort());
    expect(parseVerificationFilters(new URLSearchParams(filtersToUrlQuery(filters)))).toEqual({ ok: true, filters });
  });
});
