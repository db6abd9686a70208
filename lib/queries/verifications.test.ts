import { describe, expect, it } from "vitest";

import { MEDIA_REFRESH_MARGIN_MS, mediaRefreshDelay, verificationKeys, verificationsApiUrl } from "./verifications";

describe("verification query keys", () => {
  it("are the same for the same view however the filters were written", () => {
    expect(verificationKeys.list({ status: ["review", "approved"] })).toEqual(verificationKeys.list({ status: ["approved", "review"], per_page: 20, page: 1 }));
    expect(verificationKeys.list({}).slice(0, 2)).toEqual(verificationKeys.lists());
  });

  it("ask the route handler with the filters only", () => {
    expect(verificationsApiUrl({ status: ["review"], from: "2026-10-01" })).toBe("/api/verifications?status=review&from=2026-10-01&per_page=20");
  });
});

describe("media token refresh", () => {
  const now = Date.parse("2026-11-01T12:00:00Z");
  const item = (key: string, seconds: number) => ({ key, available: true as const, src: "/api/media/x", mediaType: "image/png", expiresAt: new Date(now + seconds * 1000).toISOString() });

  it("refetches before the first token expires", () => {
    const data = { publicId: "p", items: [item("selfie", 295), item("document_back", 200)] };
    expect(mediaRefreshDelay(data, now)).toBe(200_000 - MEDIA_REFRESH_MARGIN_MS);
  });

  it("never spins and never refetches without tokens", () => {
    expect(mediaRefreshDelay({ publicId: "p", items: [item("selfie", 5)] }, now)).toBe(1_000);
    expect(mediaRefreshDelay({ publicId: "p", items: [{ key: "selfie", available: false, reason: "liveness_not_approved" }] }, now)).toBe(false);
    expect(mediaRefreshDelay(undefined, now)).toBe(false);
  });
});
