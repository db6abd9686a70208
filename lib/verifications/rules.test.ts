import { describe, expect, it } from "vitest";

import { filtersToSearchParams, type VerificationFilters } from "@/lib/upstream/model/verification-query";

import { parseCreateVerificationInput, parseVerificationFilters } from "./rules";

const parse = (query: string) => parseVerificationFilters(new URLSearchParams(query));
const failingPaths = (query: string) => {
  const parsed = parse(query);
  return parsed.ok ? [] : parsed.problems.map((problem) => problem.field);
};
const filtersOf = (query: string) => {
  const parsed = parse(query);
  return parsed.ok ? parsed.filters : parsed.problems;
};

describe("verification filters", () => {
  it("reads status comma-separated or repeated, and numbers", () => {
    expect(filtersOf("status=review,approved&status=reproved&per_page=50&page=2&from=2026-10-01&to=2026-10-31")).toEqual({
      // Normalised: statuses in the form's order.
      status: ["approved", "review", "reproved"],
      per_page: 50,
      page: 2,
      from: "2026-10-01",
      to: "2026-10-31",
    });
  });

  it("names unknown parameters and bad values", () => {
    expect(filtersOf("status=review&sort=desc&integration_origin_public_id=x")).toEqual([
      { field: "sort", message: "is not accepted", code: "not_accepted" },
      { field: "integration_origin_public_id", message: "is not accepted", code: "not_accepted" },
    ]);
    expect(failingPaths("per_page=abc")).toEqual(["per_page"]);
    expect(failingPaths("per_page=1000")).toEqual(["per_page"]);
    expect(failingPaths("from=2026-02-30")).toEqual(["from"]);
    expect(failingPaths("from=yesterday")).toEqual(["from"]);
    expect(failingPaths("status=Review%3Bdrop")).toEqual(["status"]);
    expect(failingPaths("flow=Default&flow=other")).toEqual(["flow"]);
    expect(failingPaths(`status=${Array(11).fill("review").join(",")}`)).toEqual(["status"]);
    expect(failingPaths("from=2026-10-31&to=2026-10-01")).toEqual(["from"]);
  });

  it("round-trips through the URL", () => {
    const filters: VerificationFilters = { status: ["approved", "review"], flow: "default", per_page: 20, page: 3 };
    const query = filtersToSearchParams(filters).toString();
    expect(query).toBe("status=approved%2Creview&flow=default&per_page=20&page=3");
    expect(filtersOf(query)).toEqual(filters);
  });
});

describe("verification creation", () => {
  const body = { schemaVersion: "1", refId: "customer-42", document: { type: "cpf", number: "529.982.247-25" } };

  const fieldsOf = (input: unknown) => {
    const parsed = parseCreateVerificationInput(input);
    return parsed.ok ? [] : parsed.problems.map((problem) => `${problem.field}: ${problem.code}`);
  };

  it("accepts a complete body, trimmed", () => {
    expect(parseCreateVerificationInput({ ...body, refId: " customer-42 " })).toEqual({ ok: true, value: body });
  });

  it("refuses a refId with a text-direction override, an invisible character or a control character, naming it", () => {
    for (const refId of [
      "ref\u202Eevil",
      "ref\u200Bx",
      "ref\nx",
      "ref\r\nx",
      "ref\tx",
      "ref\u0000",
      "ref\u0085x",
      "ref\u2028x",
      "ref\u00ADx",
    ]) {
      expect(fieldsOf({ ...body, refId }), JSON.stringify(refId)).toEqual(["refId: invalid"]);
    }
    // Punctuation (written quoted and guarded in exports) is a reference's own business.
    expect(fieldsOf({ ...body, refId: "ref;=1+1" })).toEqual([]);
  });

  it("refuses integration_origin_public_id and any other unknown field by name", () => {
    expect(fieldsOf({ ...body, integration_origin_public_id: "abc" })).toEqual(["integration_origin_public_id: not_accepted"]);
    expect(fieldsOf({ ...body, document: { ...body.document, issuer: "x" } })).toEqual(["document.issuer: not_accepted"]);
  });

  it("takes an optional flow id, validated like a verification's id; empty is none", () => {
    expect(parseCreateVerificationInput({ ...body, flowPublicId: " kyc-sow " })).toEqual({
      ok: true,
      value: { ...body, flowPublicId: "kyc-sow" },
    });
    expect(parseCreateVerificationInput({ ...body, flowPublicId: "" })).toEqual({ ok: true, value: body });
    for (const flowPublicId of ["../flows", "a b", "x".repeat(129), 7])
      expect(fieldsOf({ ...body, flowPublicId }), String(flowPublicId)).toEqual(["flowPublicId: invalid"]);
  });

  it("names missing fields, long ones, a wrong document type and an invalid CPF", () => {
    expect(fieldsOf({ schemaVersion: "", document: { type: "cpf", number: "111.111.111-11" } })).toEqual([
      "schemaVersion: required",
      "refId: required",
      "document.number: invalid_cpf",
    ]);
    expect(fieldsOf({ ...body, document: { type: "cpf", number: "529.982.247-24" } })).toEqual(["document.number: invalid_cpf"]);
    expect(fieldsOf({ ...body, refId: "x".repeat(129), document: { type: "rg", number: "1" } })).toEqual([
      "refId: too_long",
      "document.type: invalid",
    ]);
    expect(fieldsOf({ ...body, document: undefined })).toEqual(["document: required"]);
    expect(fieldsOf("text")).toEqual(["(input): invalid"]);
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
