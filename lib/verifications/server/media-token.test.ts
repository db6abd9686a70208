import { sealData } from "iron-session";
import { describe, expect, it } from "vitest";

import { parseKeyRing, singleKeyRing } from "@/lib/keys/ring";

import { MAX_MEDIA_TOKEN_SECONDS, MediaTokenError, openMediaToken, sealMediaToken, type MediaClaim } from "./media-token";

const password = "m".repeat(40);
const secret = singleKeyRing(password);
const newer = "n".repeat(40);
const now = Date.now();
const claim: MediaClaim = {
  userId: "user-1",
  publicId: "a3c1d2e4-0000-4000-8000-000000000001",
  fileKey: "selfie",
  mediaType: "image/png",
  expiresAt: now + 300_000,
};

async function problemOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MediaTokenError) return error.problem;
    throw error;
  }
  return "opened";
}

describe("media tokens", () => {
  it("open for the user they were sealed for, and carry no URL", async () => {
    const token = await sealMediaToken(claim, secret, now);
    expect(token).not.toMatch(/https?:|\/files\//);
    await expect(openMediaToken(token, "user-1", secret, now)).resolves.toEqual(claim);
  });

  it("carry the signed URL only sealed: no part of it is readable in the token, and it opens whole", async () => {
    const fileUrl = "https://files.provider.example/verifications/abc/selfie.png?X-Signature=Zq81signature&expires=1796000300";
    const token = await sealMediaToken({ ...claim, fileUrl }, secret, now);
    for (const part of ["files.provider", "provider.example", "selfie.png", "Zq81signature", "X-Signature", "1796000300"])
      expect(token, part).not.toContain(part);
    // Nor its base64, which iron's own format would show if it only encoded.
    expect(token).not.toContain(Buffer.from("files.provider").toString("base64url").slice(0, 12));
    await expect(openMediaToken(token, "user-1", secret, now)).resolves.toEqual({ ...claim, fileUrl });
    // Only the user it was sealed for opens it, URL and all.
    expect(await problemOf(openMediaToken(token, "user-2", secret, now))).toBe("foreign");
  });

  it("refuse another user's token", async () => {
    const token = await sealMediaToken(claim, secret, now);
    expect(await problemOf(openMediaToken(token, "user-2", secret, now))).toBe("foreign");
  });

  it("refuse a token past its expiry, even inside iron's clock-skew allowance", async () => {
    const token = await sealMediaToken({ ...claim, expiresAt: now + 10_000 }, secret, now);
    expect(await problemOf(openMediaToken(token, "user-1", secret, now + 10_001))).toBe("expired");
  });

  it("never outlive the signed URL nor the maximum", async () => {
    const long = await sealMediaToken({ ...claim, expiresAt: now + 3_600_000 }, secret, now);
    const opened = await openMediaToken(long, "user-1", secret, now);
    expect(opened.expiresAt).toBe(now + MAX_MEDIA_TOKEN_SECONDS * 1000);
    expect(await problemOf(sealMediaToken({ ...claim, expiresAt: now + 500 }, secret, now))).toBe("expired");
  });

  it("refuse forged, tampered, foreign-secret and garbage tokens", async () => {
    const token = await sealMediaToken(claim, secret, now);
    const tampered = token.slice(0, 40) + (token[40] === "A" ? "B" : "A") + token.slice(41);
    expect(await problemOf(openMediaToken(tampered, "user-1", secret, now))).toBe("invalid");
    expect(await problemOf(openMediaToken(token, "user-1", singleKeyRing("o".repeat(40)), now))).toBe("invalid");
    expect(await problemOf(openMediaToken("not-a-seal", "user-1", secret, now))).toBe("invalid");
    // A genuine seal of something that is not a media claim (e.g. another feature's seal).
    const other = await sealData({ userId: "user-1" }, { password, ttl: 60 });
    expect(await problemOf(openMediaToken(other, "user-1", secret, now))).toBe("invalid");
  });

  it("after a rotation of MEDIA_SEAL_SECRET: a token of the old key still opens, new ones are sealed under the new key", async () => {
    const old = await sealMediaToken(claim, secret, now);
    const rotated = parseKeyRing(`2026-11-28T1943:${newer},1:${password}`);
    await expect(openMediaToken(old, "user-1", rotated, now)).resolves.toEqual(claim);
    // Still bound to its user under the ring.
    expect(await problemOf(openMediaToken(old, "user-2", rotated, now))).toBe("foreign");

    const fresh = await sealMediaToken(claim, rotated, now);
    await expect(openMediaToken(fresh, "user-1", singleKeyRing(newer), now)).resolves.toEqual(claim);
    expect(await problemOf(openMediaToken(fresh, "user-1", secret, now))).toBe("invalid");

    // The old key retired: its tokens open with no key left.
    const retired = parseKeyRing(`2026-11-28T1943:${newer}`);
    expect(await problemOf(openMediaToken(old, "user-1", retired, now))).toBe("invalid");
    await expect(openMediaToken(fresh, "user-1", retired, now)).resolves.toEqual(claim);
  });
});
