import { describe, expect, it } from "vitest";

import { dummyPasswordHash, generateOneTimePassword, hashPassword, verifyPassword } from "./password";

describe("password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same password here")).not.toBe(await hashPassword("same password here"));
  });

  it("treats a malformed stored hash as a wrong password", async () => {
    for (const stored of ["", "plain", "scrypt$1$2$3$$", "bcrypt$x$y$z$a$b", "scrypt$abc$8$1$c2FsdA==$aGFzaA=="]) {
      expect(await verifyPassword("anything", stored)).toBe(false);
    }
  });

  it("refuses an over-long password", async () => {
    const long = "x".repeat(300);
    expect(await verifyPassword(long, await hashPassword(long.slice(0, 257)))).toBe(false);
  });

  it("reads parameters from the stored string, so older hashes keep working", async () => {
    // A hash made with cheaper parameters than today's still verifies.
    const { scryptSync, randomBytes } = await import("node:crypto");
    const salt = randomBytes(16);
    const key = scryptSync("old password 123", salt, 32, { N: 1024, r: 8, p: 1 });
    const stored = ["scrypt", 1024, 8, 1, salt.toString("base64"), key.toString("base64")].join("$");
    expect(await verifyPassword("old password 123", stored)).toBe(true);
  });

  it("takes about as long for the dummy hash as for a real one", async () => {
    const real = await hashPassword("a real password");
    const dummy = await dummyPasswordHash();
    const time = async (stored: string) => {
      const start = performance.now();
      for (let index = 0; index < 3; index += 1) await verifyPassword("a guess", stored);
      return performance.now() - start;
    };
    await time(real); // warm-up
    const [realMs, dummyMs] = [await time(real), await time(dummy)];
    // Same parameters, same work: generous bounds, since the test machine is shared.
    expect(dummyMs / realMs).toBeGreaterThan(0.33);
    expect(dummyMs / realMs).toBeLessThan(3);
  });

  it("generates readable one-time passwords", () => {
    const passwords = new Set(Array.from({ length: 50 }, generateOneTimePassword));
    expect(passwords.size).toBe(50);
    for (const password of passwords) expect(password).toMatch(/^[a-km-zA-HJ-NP-Z2-9]{5}(-[a-km-zA-HJ-NP-Z2-9]{5}){3}$/);
  });
});
