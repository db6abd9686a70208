import { describe, expect, it } from "vitest";

import { createNonce, pageContentSecurityPolicy } from "./csp";

const directive = (policy: string, name: string) =>
  policy
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.split(/\s+/)[0] === name);

describe("page CSP", () => {
  it("makes a different nonce each time, 128 bits in base64", () => {
    const nonces = new Set(Array.from({ length: 200 }, createNonce));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });

  it("lets scripts run only by nonce and strict-dynamic, never inline or eval in production", () => {
    const policy = pageContentSecurityPolicy("abc123");
    expect(directive(policy, "script-src")).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(policy).not.toContain("unsafe-eval");
    expect(directive(policy, "style-src")).toBe("style-src 'self' 'nonce-abc123'");
    expect(directive(policy, "frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive(policy, "object-src")).toBe("object-src 'none'");
    expect(directive(policy, "base-uri")).toBe("base-uri 'none'");
    expect(directive(policy, "form-action")).toBe("form-action 'self'");
  });

  it("lets a form's redirect reach the identity provider only when single sign-on names one", () => {
    const policy = pageContentSecurityPolicy(createNonce(), { formTargets: ["https://login.example.com"] });
    expect(directive(policy, "form-action")).toBe("form-action 'self' https://login.example.com");
  });

  it("allows eval and inline style elements only for the development server", () => {
    const policy = pageContentSecurityPolicy("n", { development: true });
    expect(directive(policy, "script-src")).toContain("'unsafe-eval'");
    expect(directive(policy, "script-src")).not.toContain("unsafe-inline");
    expect(directive(policy, "style-src")).toBe("style-src 'self' 'unsafe-inline'");
  });
});
