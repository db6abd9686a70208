import { describe, expect, it } from "vitest";

import {
  deriveKey,
  formatKeyRing,
  KeyRingError,
  openText,
  parseKeyRing,
  sealedTextKeyId,
  sealText,
  singleKeyRing,
  withNewKey,
} from "./ring";

const a = "a".repeat(40);
const b = "b".repeat(40);

describe("parseKeyRing", () => {
  it("reads a plain secret as one key with the legacy id, and id:secret entries newest first", () => {
    expect(parseKeyRing(a)).toEqual(singleKeyRing(a, "1"));
    const ring = parseKeyRing(`2026-11:${b}, 1:${a}`);
    expect(ring.current).toEqual({ id: "2026-11", secret: b });
    expect(ring.keys.map((key) => key.id)).toEqual(["2026-11", "1"]);
    expect(parseKeyRing(formatKeyRing(ring))).toEqual(ring);
  });

  it("refuses a repeated id, a malformed entry and a short key, saying which", () => {
    expect(() => parseKeyRing(`k:${a},k:${b}`)).toThrow(new KeyRingError('key id "k" appears twice'));
    expect(() => parseKeyRing(`k:${a},${b}`)).toThrow(/entry 2 must be id:secret/);
    expect(() => parseKeyRing(`k:${a},j:short`, 32)).toThrow(new KeyRingError('key "j" must be at least 32 characters'));
    expect(() => parseKeyRing("short", 32)).toThrow(new KeyRingError("must be at least 32 characters"));
    expect(() => withNewKey(parseKeyRing(`k:${a}`), { id: "k", secret: b })).toThrow(/already in the ring/);
  });
});

describe("sealed text", () => {
  it("seals under the current key, opens under any key still in the ring, and not once that key is gone", () => {
    const old = singleKeyRing(a, "old");
    const sealed = sealText(old, "case-note", "Titular pediu revisão");
    expect(sealed).not.toContain("Titular");
    expect(sealedTextKeyId(sealed)).toBe("old");
    const rotated = withNewKey(old, { id: "new", secret: b });
    expect(openText(rotated, "case-note", sealed)).toBe("Titular pediu revisão");
    expect(sealedTextKeyId(sealText(rotated, "case-note", "x"))).toBe("new");
    expect(openText(singleKeyRing(b, "new"), "case-note", sealed)).toBeNull();
  });

  it("derives each key once per purpose, and never serves one key's derivation for another key of the same id", () => {
    const key = { id: "k", secret: a };
    expect(deriveKey(key, "case-note")).toBe(deriveKey(key, "case-note"));
    expect(deriveKey(key, "case-note").equals(deriveKey(key, "core-key"))).toBe(false);
    // Same id, another secret (a ring read anew after an operator fixed a typo): its own derivation.
    const replaced = { id: "k", secret: b };
    expect(deriveKey(replaced, "case-note").equals(deriveKey(key, "case-note"))).toBe(false);
    const sealed = sealText(singleKeyRing(a, "k"), "case-note", "texto");
    expect(openText({ current: replaced, keys: [replaced] }, "case-note", sealed)).toBeNull();
    expect(openText({ current: key, keys: [key] }, "case-note", sealed)).toBe("texto");
  });

  it("does not open under another purpose, nor once altered", () => {
    const ring = singleKeyRing(a);
    const sealed = sealText(ring, "case-note", "texto");
    expect(openText(ring, "outcome-comment", sealed)).toBeNull();
    const parts = sealed.split(".");
    parts[3] = Buffer.from("x".repeat(16)).toString("base64url");
    expect(openText(ring, "case-note", parts.join("."))).toBeNull();
    expect(openText(ring, "case-note", "texto em claro")).toBeNull();
  });

  it("opens only with the full 16-byte tag: the right tag cut short does not open", () => {
    const ring = singleKeyRing(a);
    const sealed = sealText(ring, "case-note", "texto");
    const parts = sealed.split(".");
    const tag = Buffer.from(parts[4]!, "base64url");
    expect(tag).toHaveLength(16);
    for (const length of [4, 8, 12, 15]) {
      parts[4] = tag.subarray(0, length).toString("base64url");
      expect(openText(ring, "case-note", parts.join(".")), `${length} bytes`).toBeNull();
    }
  });
});
