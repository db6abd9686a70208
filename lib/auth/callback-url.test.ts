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
  });
});
