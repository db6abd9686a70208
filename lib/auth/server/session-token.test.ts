import { encode } from "next-auth/jwt";
import { describe, expect, it } from "vitest";

import { decodeSessionToken } from "./session-token";

const secret = "test-nextauth-secret-0123456789abcdef";

describe("decodeSessionToken", () => {
  it("reads what next-auth encodes, with the same secret", async () => {
    const token = await encode({ token: { uid: "user-1", sid: "session-1" }, secret, maxAge: 60 });
    expect(await decodeSessionToken({ token, secret })).toMatchObject({ uid: "user-1", sid: "session-1" });
    // The key is cached per secret: a second decode and another secret's token behave the same way.
    expect(await decodeSessionToken({ token, secret })).toMatchObject({ sid: "session-1" });
    const other = "another-nextauth-secret-0123456789abc";
    const otherToken = await encode({ token: { sid: "session-2" }, secret: other, maxAge: 60 });
    expect(await decodeSessionToken({ token: otherToken, secret: other })).toMatchObject({ sid: "session-2" });
  });

  it("refuses a token sealed with another secret, a tampered token and an expired one", async () => {
    const token = await encode({ token: { sid: "session-1" }, secret, maxAge: 60 });
    await expect(decodeSessionToken({ token, secret: "wrong-secret-0123456789abcdefghijkl" })).rejects.toThrow();
    const tampered = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA");
    await expect(decodeSessionToken({ token: tampered, secret })).rejects.toThrow();
    const expired = await encode({ token: { sid: "session-1" }, secret, maxAge: -60 });
    await expect(decodeSessionToken({ token: expired, secret })).rejects.toThrow();
  });
});
