import { describe, expect, it } from "vitest";

import { apiInConnection, connectionOfPath, inConnection, withoutConnection } from "./connection-path";

describe("a connection in an address", () => {
  it("is read from the /c/{id} prefix only", () => {
    expect(connectionOfPath("/c/production/verifications/abc")).toBe("production");
    expect(connectionOfPath("/c/production")).toBe("production");
    expect(connectionOfPath("/c/production?x=1")).toBe("production");
    expect(connectionOfPath("/cases/c/production")).toBeNull();
    expect(connectionOfPath("/c/Bad_Id/x")).toBeNull();
    expect(connectionOfPath("/c/")).toBeNull();
  });

  it("comes off, leaving the page's own address", () => {
    expect(withoutConnection("/c/production/verifications/abc")).toBe("/verifications/abc");
    expect(withoutConnection("/c/production")).toBe("/");
    expect(withoutConnection("/verifications")).toBe("/verifications");
  });

  it("goes onto a dashboard page's link, never onto sign-in, the API, another connection or another site", () => {
    expect(inConnection("/verifications?status=review", "production")).toBe("/c/production/verifications?status=review");
    expect(inConnection("/", "production")).toBe("/c/production");
    expect(inConnection("/verifications", null)).toBe("/verifications");
    for (const href of ["/sign-in", "/api/cases", "/c/primary/cases", "https://example.com/", "//evil.example/", "#content"]) {
      expect(inConnection(href, "production")).toBe(href);
    }
  });

  it("names the connection on an API call that names none", () => {
    expect(apiInConnection("/api/cases", "production")).toBe("/api/cases?connection=production");
    expect(apiInConnection("/api/cases?status=open", "production")).toBe("/api/cases?status=open&connection=production");
    expect(apiInConnection("/api/cases?connection=primary", "production")).toBe("/api/cases?connection=primary");
    expect(apiInConnection("/api/cases", null)).toBe("/api/cases");
  });
});
