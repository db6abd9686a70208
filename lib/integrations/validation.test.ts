import { describe, expect, it } from "vitest";

import { createIntegrationSchema, labelProblem, parseDomain } from "./validation";

describe("integration domain", () => {
  it.each([
    ["https://Example.com.br/path", "example.com.br"],
    ["http://example.com", "example.com"],
    ["Example.COM.br", "example.com.br"],
    ["app.example.com.br:8443/x?y=1", "app.example.com.br"],
    ["  shop.example.org  ", "shop.example.org"],
    ["https://exemplo-ção.com.br", "xn--exemplo-o-s2a7b.com.br"],
  ])("%s → host %s", (input, host) => {
    expect(parseDomain(input)).toEqual({ host });
  });

  it.each([
    ["", "required"],
    ["   ", "required"],
    ["ftp://example.com", "scheme"],
    ["javascript:alert(1)", "scheme"],
    ["mailto:someone@example.com", "scheme"],
    ["https://user:pass@example.com", "credentials"],
    ["example", "private"],
    ["metadata", "private"],
    ["localhost:3000", "private"],
    ["localhost", "private"],
    ["shop.localhost", "private"],
    ["printer.local", "private"],
    ["metadata.google.internal", "private"],
    ["nas.home.arpa", "private"],
    ["db.corp", "private"],
    ["http://10.0.0.1", "ip"],
    ["169.254.169.254", "ip"],
    ["http://169.254.169.254/latest/meta-data/", "ip"],
    ["127.0.0.1:8080", "ip"],
    ["2130706433", "ip"],
    ["0x7f.1", "ip"],
    ["[::1]", "ip"],
    ["http://[fd00:ec2::254]/", "ip"],
    ["[::ffff:a9fe:a9fe]", "ip"],
    ["exa mple.com", "host"],
    ["-bad.example.com", "host"],
    ["example.c", "host"],
    ["https://", "host"],
    [`${"a".repeat(64)}.com`, "host"],
    [`https://${"a".repeat(2100)}.com`, "too_long"],
  ])("%j is refused (%s)", (input, problem) => {
    expect(parseDomain(input)).toEqual({ problem });
  });

  it("accepts a private name only under a configured suffix, and never an IP or localhost", () => {
    const allowed = ["corp.example.net", "internal"];
    expect(parseDomain("kyc.corp.example.net", allowed)).toEqual({ host: "kyc.corp.example.net" });
    expect(parseDomain("metadata.google.internal", allowed)).toEqual({ host: "metadata.google.internal" });
    expect(parseDomain("printer.local", allowed)).toEqual({ problem: "private" });
    expect(parseDomain("localhost", allowed)).toEqual({ problem: "private" });
    expect(parseDomain("10.0.0.1", ["0.0.1"])).toEqual({ problem: "ip" });
  });

  it("the schema names the field and keeps the value as typed", () => {
    expect(createIntegrationSchema.parse({ domain: " https://Example.com.br/path ", label: " Loja " })).toEqual({
      domain: "https://Example.com.br/path",
      label: "Loja",
    });
    const failed = createIntegrationSchema.safeParse({ domain: "ftp://x.com", label: "" });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues.map((issue) => issue.path.join("."))).toEqual(["domain", "label"]);
  });

  it("refuses unknown fields", () => {
    const failed = createIntegrationSchema.safeParse({ domain: "example.com", label: "x", uuid: "mine" });
    expect(failed.success).toBe(false);
  });

  it("labels", () => {
    expect(labelProblem("Loja online")).toBeUndefined();
    expect(labelProblem("  ")).toBe("required");
    expect(labelProblem("x".repeat(121))).toBe("too_long");
    expect(labelProblem("a\u0007b")).toBe("characters");
  });
});

describe("integration label: invisible and text-direction characters", () => {
  it("are refused by the form's rule and by the schema, naming the label", () => {
    expect(labelProblem("Loja\u202Eonline")).toBe("invisible");
    expect(labelProblem("Lo\u200Bja")).toBe("invisible");
    const failed = createIntegrationSchema.safeParse({ domain: "example.com", label: "Loja\u2066x\u2069" });
    expect(failed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["label", "Label contains invisible or text-direction characters"],
    ]);
  });
});
