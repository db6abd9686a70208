import { describe, expect, it } from "vitest";

import { MEDIA_MIN_REFRESH_MS, MEDIA_REFRESH_MARGIN_MS, mediaRefreshDelay, verificationKeys, verificationsApiUrl } from "./queries";

describe("verification query keys", () => {
  it("are the same for the same view however the filters were written", () => {
    expect(verificationKeys.list({ status: ["review", "approved"] })).toEqual(
      verificationKeys.list({ status: ["approved", "review"], per_page: 20, page: 1 }),
    );
    expect(verificationKeys.list({}).slice(0, 2)).toEqual(verificationKeys.lists());
  });

  it("ask the route handler with the filters only", () => {
    expect(verificationsApiUrl({ status: ["review"], from: "2026-10-01" })).toBe(
      "/api/verifications?status=review&from=2026-10-01&per_page=20",
    );
  });
});

describe("media token refresh", () => {
  const receivedAt = Date.parse("2026-11-01T12:00:00Z");
  const item = (key: string, seconds: number) => ({
    key,
    available: true as const,
    src: "/api/media/x",
    mediaType: "image/png",
    // A server clock far from the browser's: only the relative life counts.
    expiresAt: new Date(receivedAt - 3_600_000 + seconds * 1000).toISOString(),
    expiresInSeconds: seconds,
  });

  it("refetches before the first token expires, counted from when the answer arrived", () => {
    const data = { publicId: "p", items: [item("selfie", 295), item("document_back", 200)] };
    expect(mediaRefreshDelay(data, receivedAt, receivedAt)).toBe(200_000 - MEDIA_REFRESH_MARGIN_MS);
    expect(mediaRefreshDelay(data, receivedAt, receivedAt + 100_000)).toBe(100_000 - MEDIA_REFRESH_MARGIN_MS);
  });

  it("never spins and never refetches without tokens", () => {
    expect(mediaRefreshDelay({ publicId: "p", items: [item("selfie", 5)] }, receivedAt, receivedAt)).toBe(MEDIA_MIN_REFRESH_MS);
    expect(
      mediaRefreshDelay({ publicId: "p", items: [{ key: "selfie", available: false, reason: "liveness_not_approved" }] }, receivedAt),
    ).toBe(false);
    expect(mediaRefreshDelay(undefined, receivedAt)).toBe(false);
  });
});
