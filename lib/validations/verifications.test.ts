import { describe, expect, it } from "vitest";

import {
  createVerificationSchema,
  filtersFromSearchParams,
  filtersToSearchParams,
  parseVerificationFilters,
  verificationFiltersSchema,
  type VerificationFilters,
} from "./verifications";

const parse = (query: string) => verificationFiltersSchema.safeParse(filtersFromSearchParams(new URLSearchParams(query)));
const failingPaths = (query: string) => parse(query).error?.issues.map((issue) => issue.path.join(".") || issue.message);

describe("verification filters", () => {
  it("reads status comma-separated or repeated, and numbers", () => {
    expect(parse("status=review,approved&status=reproved&per_page=50&page=2&from=2026-10-01&to=2026-10-31").data).toEqual({
      status: ["review", "approved", "reproved"],
      per_page: 50,
      page: 2,
      from: "2026-10-01",
      to: "2026-10-31",
    });
  });

  it("names unknown parameters and bad values", () => {
    const unknown = parse("status=review&sort=desc&integration_origin_public_id=x").error?.issues[0];
    expect(unknown?.code).toBe("unrecognized_keys");
    expect(unknown && "keys" in unknown ? unknown.keys : []).toEqual(["sort", "integration_origin_public_id"]);
    expect(failingPaths("per_page=abc")).toEqual(["per_page"]);
    expect(failingPaths("per_page=1000")).toEqual(["per_page"]);
    expect(failingPaths("from=2026-02-30")).toEqual(["from"]);
    expect(failingPaths("from=yesterday")).toEqual(["from"]);
    expect(failingPaths("status=Review%3Bdrop")).toEqual(["status.0"]);
    expect(failingPaths("from=2026-10-31&to=2026-10-01")).toEqual(["from"]);
  });

  it("round-trips through the URL", () => {
    const filters: VerificationFilters = { status: ["review", "approved"], flow: "default", per_page: 20, page: 3 };
    const query = filtersToSearchParams(filters).toString();
    expect(query).toBe("status=review%2Capproved&flow=default&per_page=20&page=3");
    expect(parse(query).data).toEqual(filters);
  });
});

describe("verification creation", () => {
  const body = { schemaVersion: "1", refId: "customer-42", document: { type: "cpf", number: "529.982.247-25" } };

  it("accepts a complete body", () => {
    expect(createVerificationSchema.safeParse(body).success).toBe(true);
  });

  it("refuses integration_origin_public_id by name", () => {
    const result = createVerificationSchema.safeParse({ ...body, integration_origin_public_id: "abc" });
    const issue = result.error?.issues[0];
    expect(issue && "keys" in issue ? issue.keys : []).toEqual(["integration_origin_public_id"]);
  });

  it("names missing fields and an invalid CPF", () => {
    const result = createVerificationSchema.safeParse({ schemaVersion: "", document: { type: "cpf", number: "111.111.111-11" } });
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["schemaVersion", "refId"]);
    const cpf = createVerificationSchema.safeParse({ ...body, document: { type: "cpf", number: "529.982.247-24" } });
    expect(cpf.error?.issues.map((issue) => issue.path.join("."))).toEqual(["document.number"]);
  });
});

describe("integers in the filters", () => {
  it.each(["0x10", "1e3", "+5", " 7", "1.0"])("refuses %j for per_page and page, naming the field", (value) => {
    for (const field of ["per_page", "page"]) {
      const parsed = parseVerificationFilters(new URLSearchParams({ [field]: value }));
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.problems.map((problem) => problem.field)).toEqual([field]);
    }
  });

  it("accepts decimal digits", () => {
    const parsed = parseVerificationFilters(new URLSearchParams({ per_page: "20", page: "3" }));
    expect(parsed.ok && parsed.filters).toMatchObject({ per_page: 20, page: 3 });
  });
});
