import { describe, expect, it } from "vitest";

import { listQueryOf, parseListQuery } from "./list-query";

/* The list page's query read from the address and written back: the filters, the sort, and their refusals. */

const parse = (query: string) => parseListQuery(new URLSearchParams(query));

describe("parseListQuery", () => {
  it("reads the filters and the sort apart", () => {
    expect(parse("status=review&per_page=50&sort=-risk_score")).toEqual({
      ok: true,
      filters: { status: ["review"], per_page: 50 },
      sort: { key: "risk_score", direction: "desc" },
    });
  });

  it("refuses a sort naming no column, by name", () => {
    expect(parse("status=review&sort=-cpf")).toEqual({ ok: false, problems: [{ field: "sort", message: "is not valid" }] });
  });

  it("names a refused sort beside the filters' own problems", () => {
    const parsed = parse("from=2026-03-09&to=2026-03-01&sort=nothing");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problems.map((problem) => problem.field)).toEqual(["from", "sort"]);
  });
});

describe("listQueryOf", () => {
  it("writes what parseListQuery reads", () => {
    const query = listQueryOf(
      { status: ["review", "reproved"], flow: "default", per_page: 50, page: 3 },
      { key: "created_at", direction: "asc" },
    );
    const parsed = parse(query);
    expect(parsed).toEqual({
      ok: true,
      filters: { status: ["review", "reproved"], flow: "default", per_page: 50, page: 3 },
      sort: { key: "created_at", direction: "asc" },
    });
  });

  it("is empty for the unfiltered list in the service's order", () => {
    expect(listQueryOf({}, null)).toBe("");
  });
});
