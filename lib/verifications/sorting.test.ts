import { describe, expect, it } from "vitest";

import type { Verification } from "@/lib/upstream/model/verification";

import { parseSort, sortItems, sortParam, splitListQuery } from "./sorting";

const item = (publicId: string, riskScore: number | null, createdAt?: string): Verification => ({
  publicId,
  document: "***.982.247-**",
  documentMasked: true,
  status: "review",
  steps: [],
  identityScore: null,
  riskScore,
  pepOrigin: null,
  restrictiveLists: [],
  person: {},
  extra: {},
  createdAt,
});

describe("list sorting within the page", () => {
  const items = [item("a", 300), item("b", null), item("c", 900), item("d", 300)];

  it("sorts both ways with missing values last and ties in the service's order", () => {
    expect(sortItems(items, { key: "risk_score", direction: "desc" }).map((i) => i.publicId)).toEqual(["c", "a", "d", "b"]);
    expect(sortItems(items, { key: "risk_score", direction: "asc" }).map((i) => i.publicId)).toEqual(["a", "d", "c", "b"]);
  });

  it("keeps the service's order without a sort, and sorts by ref_id from the enrichment", () => {
    expect(sortItems(items, null)).toBe(items);
    const enrichment = {
      a: { refId: "Z-1", caseOpenedAt: null, caseOwner: null },
      c: { refId: "A-9", caseOpenedAt: null, caseOwner: null },
    };
    expect(sortItems(items, { key: "ref_id", direction: "asc" }, enrichment).map((i) => i.publicId)).toEqual(["c", "a", "b", "d"]);
  });

  it("reads and writes the URL form, refusing unknown keys", () => {
    expect(parseSort("-risk_score")).toEqual({ key: "risk_score", direction: "desc" });
    expect(parseSort("created_at")).toEqual({ key: "created_at", direction: "asc" });
    expect(parseSort("-password")).toBeNull();
    expect(sortParam({ key: "decided_at", direction: "desc" })).toBe("-decided_at");
  });

  it("keeps the sort out of the filters sent upstream", () => {
    const { filterParams, sort } = splitListQuery(new URLSearchParams("status=review&sort=-risk_score&per_page=50"));
    expect(filterParams.toString()).toBe("status=review&per_page=50");
    expect(sort).toEqual({ key: "risk_score", direction: "desc" });
    expect(splitListQuery(new URLSearchParams("sort=desc")).sortInvalid).toBe(true);
    expect(splitListQuery(new URLSearchParams("sort=risk_score&sort=status")).sortInvalid).toBe(true);
    expect(splitListQuery(new URLSearchParams("status=review")).sortInvalid).toBe(false);
  });
});
