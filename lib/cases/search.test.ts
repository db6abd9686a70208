import { describe, expect, it } from "vitest";

import { ApiRequestError } from "@/lib/shared/api-client/api-request";

import { searchQuotaOf, searchUnanswered } from "./search";

describe("searchQuotaOf: the CPF-search quota a refused search names", () => {
  const limited = (scope: string | undefined, retryAfter?: number) =>
    new ApiRequestError(429, "rate_limited", "Too many CPF searches.", [], true, retryAfter, { scope, limit: 20 });

  it("reads the hour's or the day's quota, its limit and when to come back", () => {
    expect(searchQuotaOf(limited("hour", 120))).toEqual({ scope: "hour", limit: 20, seconds: 120 });
    expect(searchQuotaOf(limited("day"))).toEqual({ scope: "day", limit: 20, seconds: 60 });
  });

  it("names no quota for another limit, another refusal or a failure with no refusal", () => {
    expect(searchQuotaOf(limited("member"))).toBeNull();
    expect(searchQuotaOf(new ApiRequestError(400, "validation", "Invalid input: cpf", ["cpf"]))).toBeNull();
    expect(searchQuotaOf(new Error("offline"))).toBeNull();
  });
});

describe("searchUnanswered: a search that had no answer at all", () => {
  it("is a network failure or anything thrown before a request was sent (the client's file not loaded)", () => {
    expect(searchUnanswered(new ApiRequestError(0, "network", "The dashboard could not be reached.", [], true))).toBe(true);
    expect(searchUnanswered(new TypeError("Failed to fetch dynamically imported module: /_next/static/chunks/x.js"))).toBe(true);
  });

  it("is not a refusal, which says why in its own words", () => {
    expect(searchUnanswered(new ApiRequestError(400, "validation", "Invalid input: cpf", ["cpf"]))).toBe(false);
    expect(searchUnanswered(new ApiRequestError(503, "upstream_unavailable", "The service is unavailable.", [], true))).toBe(false);
  });
});
