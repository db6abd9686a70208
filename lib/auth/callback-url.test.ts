import { describe, expect, it } from "vitest";

import { DEFAULT_CALLBACK_PATH, safeCallbackPath, safeCallbackUrl } from "./callback-url";

describe("callbackUrl sanitising", () => {
  it.each([
    ["/verifications/abc?tab=files#top", "/verifications/abc?tab=files#top"],
    ["/admin/staff", "/admin/staff"],
    ["/lookups/cpf?x=%2F%2Fevil", "/lookups/cpf?x=%2F%2Fevil"],
    // Percent-encoded, a line break stays inert text in the Location header.
    ["/%0d%0aSet-Cookie:x", "/%0d%0aSet-Cookie:x"],
  ])("keeps the dashboard path %s", (input, expected) => {
    expect(safeCallbackPath(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "https://evil.example/verifications",
    "http:/evil.example",
    "javascript:alert(1)",
    "/\tevil",
    "/\n/evil.example",
    "verifications",
    "",
    "%",
    "/sign-in",
    "/sign-in?callbackUrl=/admin",
    "/api/staff",
    "x".repeat(3000),
  ])("falls back for %j", (input) => {
    expect(safeCallbackPath(input)).toBe(DEFAULT_CALLBACK_PATH);
  });

  // Each resolves, once the URL parser has normalised it, to a path starting `//` or `/\\` (another host to a
  // browser), or is another scheme or host: the sign-in page's 307 and the second step's 303 go home instead.
  it.each([
    "/.//evil.test",
    "/.%2F%2Fevil.test",
    "/x/..//evil.test",
    "/x/../..//evil.test",
    "/%2e//evil.test",
    "/%2E//evil.test",
    "/%2e%2e//evil.test",
    "/x/%2e%2e//evil.test",
    "/./\\evil.test",
    "/%5Cevil.test",
    "/%5C%5Cevil.test",
    "/%2F/evil.test",
    "/%2F%2Fevil.test",
    "/%252F%252Fevil.test",
    "/.%5C/evil.test",
    "/\\evil.test",
    "/\t/evil.test",
    "/\r\n/evil.test",
    "/x\u0000/evil.test",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " /verifications",
    "https://evil.test/",
    "HTTPS://evil.test/",
    "//evil.test/%2e%2e",
    "///evil.test",
    "/;/evil.test/../..//evil.test",
  ])("falls back for %j after normalising", (input) => {
    expect(safeCallbackPath(input)).toBe(DEFAULT_CALLBACK_PATH);
  });

  it.each([
    ["/x/../verifications", "/verifications"],
    ["/./admin/staff", "/admin/staff"],
    ["/%2e/admin/staff?q=1", "/admin/staff?q=1"],
    ["/verifications/a%2Fb", "/verifications/a%2Fb"],
    ["/cases?from=//evil.test", "/cases?from=//evil.test"],
  ])("answers the normalised path for %j, not the input", (input, expected) => {
    expect(safeCallbackPath(input)).toBe(expected);
  });

  it("never throws on non-strings", () => {
    for (const input of [undefined, null, 42, {}, ["/admin"]]) expect(safeCallbackPath(input)).toBe(DEFAULT_CALLBACK_PATH);
  });

  it("keeps next-auth's absolute redirects on this origin only", () => {
    const base = "http://localhost:3000";
    expect(safeCallbackUrl("http://localhost:3000/admin/staff", base)).toBe("http://localhost:3000/admin/staff");
    expect(safeCallbackUrl("/verifications", base)).toBe("http://localhost:3000/verifications");
    expect(safeCallbackUrl("https://evil.example/", base)).toBe(`${base}${DEFAULT_CALLBACK_PATH}`);
    expect(safeCallbackUrl("http://localhost:3000.evil.example/", base)).toBe(`${base}${DEFAULT_CALLBACK_PATH}`);
    expect(safeCallbackUrl("http://localhost:3000//evil.example", base)).toBe(`${base}${DEFAULT_CALLBACK_PATH}`);
    expect(safeCallbackUrl("http://localhost:3000/.//evil.example", base)).toBe(`${base}${DEFAULT_CALLBACK_PATH}`);
    expect(safeCallbackUrl("http://localhost:3000/%2e//evil.example", base)).toBe(`${base}${DEFAULT_CALLBACK_PATH}`);
  });
});
