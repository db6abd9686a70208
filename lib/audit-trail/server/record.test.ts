import { asc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { describeEachDatabase, TEST_SECRETS, withDatabase, withTestEnvironment } from "@/test/db";

import {
  assertAuditable,
  AuditContentError,
  computeEventHash,
  cpfHash,
  GENESIS_HASH,
  maskCpf,
  recordEvent as record,
  type AuditEvent,
} from "./record";

withTestEnvironment();

const base: AuditEvent = {
  actor: { id: "9f1c2f3e-7d8a-4b5c-9e0f-1a2b3c4d5e6f", email: "ana@example.com" },
  action: "lookup.cpf",
  outcome: "success",
};

describe("CPF masking and hashing", () => {
  it("masks all but the middle six digits", () => {
    expect(maskCpf("52998224725")).toBe("***.982.247-**");
    expect(maskCpf("529.982.247-25")).toBe("***.982.247-**");
    expect(() => maskCpf("123")).toThrow(AuditContentError);
  });

  it("hashes the digits with the audit secret, whatever the formatting", () => {
    expect(cpfHash("52998224725")).toBe(cpfHash("529.982.247-25"));
    expect(cpfHash("52998224725")).toMatch(/^[0-9a-f]{64}$/);
    expect(cpfHash("52998224725", "another-secret-0123456789abcdefghij")).not.toBe(cpfHash("52998224725"));
    expect(cpfHash("52998224725")).not.toContain("52998224725");
  });
});

describe("the content guard", () => {
  const refused: Array<[string, Partial<AuditEvent>]> = [
    ["a URL in details", { details: { note: "see https://files.example.com/x.jpg?signature=abc" } }],
    ["a protocol-relative URL in purpose", { purpose: "//evil.example/steal" }],
    ["a bearer token", { details: { header: "Bearer abcdef123456" } }],
    ["a JWT", { details: { token: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig" } }],
    ["a UUID key in details", { details: { key: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10" } }],
    ["a UUID key in purpose", { purpose: "token 0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10" }],
    ["a base64 PNG", { details: { image: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk" } }],
    ["a data URI", { details: { image: "data:image/jpeg;base64,/9j/4AAQ" } }],
    ["a long encoded blob", { details: { blob: "A".repeat(200) } }],
    ["a raw CPF in details", { details: { cpf: "529.982.247-25" } }],
    ["a raw CPF as target id", { target: { type: "person", id: "52998224725" } }],
    ["nested data", { details: { nested: { a: 1 } as unknown as string } }],
    ["an unplain action", { action: "Sign In" }],
    ["a non-email actor", { actor: { id: null, email: "hunter2-password" } }],
  ];
  it.each(refused)("refuses %s", (_label, change) => {
    expect(() => assertAuditable({ ...base, ...change })).toThrow(AuditContentError);
  });

  it("accepts ordinary events, and a UUID as a target identifier", () => {
    expect(() =>
      assertAuditable({
        ...base,
        target: { type: "verification", id: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10" },
        purpose: "Onboarding review of a new client",
        details: { source: "receita", count: 3, masked: true, note: null },
      }),
    ).not.toThrow();
  });

  it("does not mistake digit runs that are not CPFs for one", () => {
    // A UUID whose last group is a digit run, and 11 digits whose check digits fail.
    expect(() => assertAuditable({ ...base, target: { type: "verification", id: "0b9a4c1e-5d2f-4e8a-9c71-a52998224725" } })).not.toThrow();
    expect(() => assertAuditable({ ...base, details: { reference: "order 52998224724" } })).not.toThrow();
  });
});

describeEachDatabase("the audit writer on $name", ({ open }) => {
  const handle = withDatabase(open);

  const all = () => handle.db.select().from(auditEvents).orderBy(asc(auditEvents.id));

  it("stores a CPF masked with its keyed hash, and chains each event to the previous one", async () => {
    await record({ ...base, target: { type: "cpf", cpf: "52998224725" }, purpose: "Account opening", ip: "203.0.113.9" }, handle.db);
    await record({ ...base, action: "auth.sign_out" }, handle.db);
    await record({ actor: null, action: "auth.sign_in", outcome: "failure", details: { reason: "unknown_account" } }, handle.db);

    const events = await all();
    expect(events).toHaveLength(3);
    expect(events[0]).toMatchObject({ targetType: "cpf", target: "***.982.247-**", targetHash: cpfHash("52998224725"), ip: "203.0.113.9" });
    expect(JSON.stringify(events)).not.toContain("52998224725");
    expect(events[0]?.prevHash).toBe(GENESIS_HASH);
    let previous = GENESIS_HASH;
    for (const event of events) {
      expect(event.prevHash).toBe(previous);
      // The stored row alone (plus the secret) reproduces its hash: a verifier can walk the chain.
      expect(computeEventHash(event.prevHash, event, TEST_SECRETS.AUDIT_HASH_SECRET)).toBe(event.hash);
      previous = event.hash;
    }
  });

  it("keeps one chain when many writers append at once", async () => {
    await Promise.all(Array.from({ length: 12 }, (_, index) => record({ ...base, details: { index } }, handle.db)));
    const events = await all();
    for (let index = 1; index < events.length; index += 1) expect(events[index]?.prevHash).toBe(events[index - 1]?.hash);
  });

  it("detects an edited event", async () => {
    const [first] = await all();
    expect(first).toBeDefined();
    const edited = { ...first!, outcome: "failure" as const };
    expect(computeEventHash(edited.prevHash, edited, TEST_SECRETS.AUDIT_HASH_SECRET)).not.toBe(first!.hash);
  });

  it("writes nothing and throws when the event holds forbidden content", async () => {
    const before = (await all()).length;
    await expect(record({ ...base, details: { url: "https://signed.example.com/file?token=x" } }, handle.db)).rejects.toBeInstanceOf(
      AuditContentError,
    );
    expect((await all()).length).toBe(before);
  });

  it("commits with the caller's transaction or not at all", async () => {
    const before = (await all()).length;
    await expect(
      handle.db.transaction(async (tx) => {
        await record({ ...base, action: "staff.invite" }, tx);
        throw new Error("the action failed after recording");
      }),
    ).rejects.toThrow("the action failed");
    expect((await all()).length).toBe(before);
  });

  it("throws when the database refuses the write, so the caller can refuse its action", async () => {
    await handle.db.execute(sql`alter table audit_events add constraint audit_test_block check (action <> 'test.blocked')`);
    try {
      await expect(record({ ...base, action: "test.blocked" }, handle.db)).rejects.toThrow();
    } finally {
      await handle.db.execute(sql`alter table audit_events drop constraint audit_test_block`);
    }
  });
});
