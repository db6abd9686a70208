import { describe, expect, it } from "vitest";

import nextConfig from "./next.config.mjs";

// The headers every answer carries (next.config.mjs); the browser suite checks them on a running build.

describe("Permissions-Policy", () => {
  it("allows passkeys on this origin only and keeps every other powerful feature off", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    const everywhere = rules.find((rule) => rule.source === "/:path*");
    const policy = everywhere?.headers.find((header) => header.key === "Permissions-Policy")?.value ?? "";
    const features = new Map(policy.split(", ").map((entry) => entry.split("=") as [string, string]));
    expect(features.get("publickey-credentials-get")).toBe("(self)");
    expect(features.get("publickey-credentials-create")).toBe("(self)");
    for (const feature of ["camera", "microphone", "geolocation", "payment", "usb", "display-capture"])
      expect(features.get(feature), feature).toBe("()");
    const allowed = [...features].filter(([, allowlist]) => allowlist !== "()").map(([feature]) => feature);
    expect(allowed.sort()).toEqual(["fullscreen", "publickey-credentials-create", "publickey-credentials-get"]);
  });
});
