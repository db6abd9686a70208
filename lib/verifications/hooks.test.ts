import { afterEach, describe, expect, it, vi } from "vitest";

import { fetchCase } from "@/lib/cases/hooks";

import {
  fetchVerificationMedia,
  MEDIA_MIN_REFRESH_MS,
  MEDIA_REFRESH_MARGIN_MS,
  mediaRefreshDelay,
  postImagesShown,
  verificationKeys,
  verificationsApiUrl,
} from "./hooks";

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

describe("reads ahead of the member", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** The headers of each request the browser would send, answered with an empty JSON object. */
  function recordRequests() {
    const sent: Array<{ url: string; headers: Record<string, string> }> = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      sent.push({ url, headers: init.headers as Record<string, string> });
      return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
    });
    return sent;
  }

  it("mark the next case's read and its image tokens as ahead and background; the page's own reads carry neither", async () => {
    const sent = recordRequests();
    await fetchCase("ver-2", undefined, "queue=open", { ahead: true });
    await fetchVerificationMedia("ver-2", undefined, { ahead: true });
    await fetchCase("ver-2", undefined, "queue=open");
    await fetchVerificationMedia("ver-2");
    await fetchVerificationMedia("ver-2", undefined, { background: true });
    const marks = sent.map(({ url, headers }) => [url, headers["x-kyc-ahead"] ?? "-", headers["x-kyc-background"] ?? "-"]);
    expect(marks).toEqual([
      ["/api/cases/ver-2?queue=open", "1", "1"],
      ["/api/verifications/ver-2/media", "1", "1"],
      ["/api/cases/ver-2?queue=open", "-", "-"],
      ["/api/verifications/ver-2/media", "-", "-"],
      ["/api/verifications/ver-2/media", "-", "1"],
    ]);
  });

  it("keep the tokens read ahead under a key of their own, and report pictures shown as a background write", async () => {
    expect(verificationKeys.mediaAhead("ver-2")).not.toEqual(verificationKeys.media("ver-2"));
    const sent = recordRequests();
    await postImagesShown("ver-2", ["document_front", "selfie"]);
    expect(sent).toEqual([
      expect.objectContaining({
        url: "/api/verifications/ver-2/media/shown",
        headers: expect.objectContaining({ "x-kyc-background": "1" }),
      }),
    ]);
    expect(sent[0]!.headers).not.toHaveProperty("x-kyc-ahead");
  });
});
