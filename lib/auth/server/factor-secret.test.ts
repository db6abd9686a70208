import { createCipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

import { describe, expect, it } from "vitest";

import { parseKeyRing, singleKeyRing } from "@/lib/keys/ring";

import {
  factorSecretKeyId,
  openFactorSecret,
  openFactorSecretWithKey,
  recoveryCodeHash,
  recoveryCodeHashes,
  sealFactorSecret,
} from "./factor-secret";

const older = "older-nextauth-secret-0123456789abcdef";
const newer = "newer-nextauth-secret-0123456789abcdef";
const rotated = parseKeyRing(`2026-11:${newer},1:${older}`);

/** An authenticator-app secret as stored before key rings: `v1.<iv>.<tag>.<ciphertext>`, no key id. */
function legacySeal(secret: string, plain: string): string {
  const key = Buffer.from(hkdfSync("sha256", secret, "kyc-staff-factors", "totp-secret-v1", 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), body].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

describe("authenticator-app secrets under the NEXTAUTH_SECRET ring", () => {
  it("seals under the current key with its id, opens by that id, and not once the key is gone", () => {
    const sealed = sealFactorSecret("JBSWY3DPEHPK3PXP", rotated);
    expect(factorSecretKeyId(sealed)).toBe("2026-11");
    expect(openFactorSecretWithKey(sealed, rotated)).toEqual({ secret: "JBSWY3DPEHPK3PXP", keyId: "2026-11", stale: false });
    const underOld = sealFactorSecret("OLDSECRET", singleKeyRing(older));
    expect(openFactorSecretWithKey(underOld, rotated)).toEqual({ secret: "OLDSECRET", keyId: "1", stale: true });
    expect(() => openFactorSecret(underOld, singleKeyRing(newer, "2026-11"))).toThrow(/no longer in the ring/);
  });

  it("refuses the right tag cut short (only GCM's full 16 bytes open a secret)", () => {
    const parts = sealFactorSecret("JBSWY3DPEHPK3PXP", rotated).split(".");
    const tag = Buffer.from(parts[3]!, "base64url");
    expect(tag).toHaveLength(16);
    for (const length of [4, 8, 12]) {
      parts[3] = tag.subarray(0, length).toString("base64url");
      expect(() => openFactorSecret(parts.join("."), rotated), `${length} bytes`).toThrow();
    }
  });

  it("opens a secret stored before rings by trying each key (GCM tells which fits)", () => {
    const legacy = legacySeal(older, "LEGACYSECRET");
    expect(factorSecretKeyId(legacy)).toBeUndefined();
    expect(openFactorSecretWithKey(legacy, rotated)).toEqual({ secret: "LEGACYSECRET", keyId: "1", stale: true });
    expect(() => openFactorSecret(legacy, singleKeyRing(newer))).toThrow();
    expect(() => openFactorSecret(`${legacy.slice(0, -2)}AA`, rotated)).toThrow();
  });

  it("recovery codes: hashed under the current key with its id; matched under every key, and as stored before rings", () => {
    const stored = recoveryCodeHash("user-1", "abcde-12345", rotated);
    expect(stored.startsWith("2026-11:")).toBe(true);
    // Grouped or cased differently, the same code.
    expect(recoveryCodeHashes("user-1", "ABCDE 12345", rotated)).toContain(stored);
    const beforeRings = createHmac("sha256", Buffer.from(hkdfSync("sha256", older, "kyc-staff-factors", "recovery-code-v1", 32)))
      .update("user-1:abcde12345")
      .digest("base64url");
    expect(recoveryCodeHashes("user-1", "abcde-12345", rotated)).toContain(beforeRings);
    expect(recoveryCodeHashes("user-1", "abcde-12345", singleKeyRing(newer, "2026-11"))).not.toContain(beforeRings);
    expect(recoveryCodeHashes("user-2", "abcde-12345", rotated)).not.toContain(stored);
  });
});
