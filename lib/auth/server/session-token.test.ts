import { decode, encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";

import { parseKeyRing, singleKeyRing } from "@/lib/keys/ring";

import { decodeSessionToken, encodeSessionToken } from "./session-token";

const secret = "test-nextauth-secret-0123456789abcdef";
const newer = "newer-nextauth-secret-0123456789abcdef";

describe("session tokens under the NEXTAUTH_SECRET ring", () => {
  it("reads what next-auth encodes, with the same secret", async () => {
    const ring = singleKeyRing(secret);
    const token = await encode({ token: { uid: "user-1", sid: "session-1" }, secret, maxAge: 60 });
    expect(await decodeSessionToken(ring, { token })).toMatchObject({ uid: "user-1", sid: "session-1" });
    // The key is cached per secret: a second decode and another secret's token behave the same way.
    expect(await decodeSessionToken(ring, { token })).toMatchObject({ sid: "session-1" });
    const other = "another-nextauth-secret-0123456789abc";
    const otherToken = await encode({ token: { sid: "session-2" }, secret: other, maxAge: 60 });
    expect(await decodeSessionToken(singleKeyRing(other), { token: otherToken })).toMatchObject({ sid: "session-2" });
  });

  it("a salted token (next-auth's other cookies) decodes under its salt only", async () => {
    const token = await encode({ token: { value: "v" }, secret, salt: "next-auth.state", maxAge: 60 });
    expect(await decodeSessionToken(singleKeyRing(secret), { token, salt: "next-auth.state" })).toMatchObject({ value: "v" });
    await expect(decodeSessionToken(singleKeyRing(secret), { token })).rejects.toThrow();
  });

  it("after a rotation: the old key's token still decodes, new tokens are made under the new key only", async () => {
    const before = singleKeyRing(secret);
    const old = await encodeSessionToken(before, { token: { sid: "old" }, maxAge: 60 });
    const rotated = parseKeyRing(`2:${newer},1:${secret}`);
    expect(await decodeSessionToken(rotated, { token: old })).toMatchObject({ sid: "old" });

    const fresh = await encodeSessionToken(rotated, { token: { sid: "fresh" }, maxAge: 60 });
    // next-auth's own decode with the new secret reads it; with the old one it does not.
    expect(await decode({ token: fresh, secret: newer })).toMatchObject({ sid: "fresh" });
    await expect(decode({ token: fresh, secret })).rejects.toThrow();

    // The old key retired: its tokens open with no key left.
    const retired = parseKeyRing(`2:${newer}`);
    await expect(decodeSessionToken(retired, { token: old })).rejects.toThrow();
    expect(await decodeSessionToken(retired, { token: fresh })).toMatchObject({ sid: "fresh" });
  });

  it("refuses a token sealed with another secret, a tampered token and an expired one, under every key", async () => {
    const ring = parseKeyRing(`2:${newer},1:${secret}`);
    const token = await encode({ token: { sid: "session-1" }, secret, maxAge: 60 });
    await expect(decodeSessionToken(singleKeyRing("wrong-secret-0123456789abcdefghijkl"), { token })).rejects.toThrow();
    const tampered = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    await expect(decodeSessionToken(ring, { token: tampered })).rejects.toThrow();
    const expired = await encode({ token: { sid: "session-1" }, secret, maxAge: -60 });
    await expect(decodeSessionToken(ring, { token: expired })).rejects.toThrow(/exp/);
    expect(await decodeSessionToken(ring, { token: undefined })).toBeNull();
  });
});
