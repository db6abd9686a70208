import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";

import { suspiciousActivityReports } from "@/lib/cases/server/tables";
import { queryRows } from "@/lib/db/client";
import { openText, sealedTextKeyId, sealText, singleKeyRing } from "@/lib/keys/ring";
import { SEALED_RECORD_TEXTS } from "@/lib/keys/sealed-records";
import { privacyRequests } from "@/lib/privacy/server/tables";
import { makeStaff } from "@/test/cases";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, stubTestEnvironment, TEST_SECRETS, withDatabase } from "@/test/db";

import { resealCaseTexts } from "./text-reseal";

/*
 * Records kept for years carry sealed texts too (lib/keys/sealed-records.ts): a report to COAF's summary, a titular
 * request's contact and answer, each kept five years. After a rotation the re-seal job moves them to the new key, so
 * that once it says `remaining` 0 the old key can leave the ring (docs/operations.md) without a summary the law makes
 * the company keep becoming unreadable.
 */

const OLD_SECRET = TEST_SECRETS.DATA_ENCRYPTION_SECRET;
const NEW_SECRET = "rotated-data-encryption-secret-0123456789abcdef";
const NEW_ID = "2026-12";
const OLD_RING = singleKeyRing(OLD_SECRET);
const { coafSummary, privacyRequestContact, privacyRequestAnswer } = SEALED_RECORD_TEXTS;

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());
afterEach(() => stubConfigEnv({ DATA_ENCRYPTION_SECRET: OLD_SECRET }));

describeEachDatabase("the re-seal job and kept records on $name", ({ open }) => {
  const handle = withDatabase(open);
  // Each test starts with no kept record, whatever ran before it.
  beforeEach(async () => {
    await handle.db.delete(suspiciousActivityReports);
    await handle.db.delete(privacyRequests);
  });

  const stored = async (table: string, column: string) =>
    (await queryRows<{ value: string }>(handle.db, sqlSelect(table, column))).map((row) => row.value);

  it("moves reports' summaries and requests' contacts and answers to the new key, and they still open", async () => {
    const officer = await makeStaff(handle.db, "admin");
    await handle.db.insert(suspiciousActivityReports).values({
      casePublicId: "case-1",
      connectionId: "primary",
      summarySealed: sealText(OLD_RING, coafSummary.purpose, "Depósitos fracionados em dinheiro"),
      grounds: ["other"],
      openedBy: officer.actor.id,
    });
    await handle.db.insert(privacyRequests).values({
      cpfHashes: ["hash"],
      documentMasked: "***.456.789-**",
      kind: "access",
      channel: "email",
      contactSealed: sealText(OLD_RING, privacyRequestContact.purpose, "titular@example.com"),
      contactMasked: "t***@example.com",
      receivedAt: new Date(),
      dueAt: new Date(Date.now() + 15 * 86_400_000),
      state: "closed",
      openedBy: officer.actor.id,
      closedBy: officer.actor.id,
      closedAt: new Date(),
      sent: "written",
      answerSealed: sealText(OLD_RING, privacyRequestAnswer.purpose, "Seus dados foram enviados"),
    });

    stubConfigEnv({ DATA_ENCRYPTION_SECRET: `${NEW_ID}:${NEW_SECRET},1:${OLD_SECRET}` });
    const report = await resealCaseTexts(handle.db, { holder: "instance-a" });
    expect(report).toMatchObject({ ran: true, counts: { recordsResealed: 3, unreadable: 0, remaining: 0 } });

    // Under the new key alone (the old one gone from the ring), each opens to its words, each under its own purpose.
    const newRing = singleKeyRing(NEW_SECRET, NEW_ID);
    const expected: Array<[typeof coafSummary | typeof privacyRequestContact | typeof privacyRequestAnswer, string]> = [
      [coafSummary, "Depósitos fracionados em dinheiro"],
      [privacyRequestContact, "titular@example.com"],
      [privacyRequestAnswer, "Seus dados foram enviados"],
    ];
    for (const [spec, words] of expected) {
      const [value] = await stored(spec.table, spec.column);
      expect(sealedTextKeyId(value!), spec.column).toBe(NEW_ID);
      expect(openText(newRing, spec.purpose, value!), spec.column).toBe(words);
    }

    // A second run has nothing to move.
    expect(await resealCaseTexts(handle.db, { holder: "instance-a" })).toMatchObject({ counts: { recordsResealed: 0, remaining: 0 } });
  });

  it("leaves a record's text it cannot open, or one without an envelope, and counts it as remaining", async () => {
    const officer = await makeStaff(handle.db, "admin");
    const gone = singleKeyRing("a-key-no-longer-in-any-ring-0123456789", "retired-1");
    for (const summary of [sealText(gone, coafSummary.purpose, "sob chave retirada"), "texto sem envelope"])
      await handle.db.insert(suspiciousActivityReports).values({
        casePublicId: "case-2",
        connectionId: "primary",
        summarySealed: summary,
        grounds: ["other"],
        openedBy: officer.actor.id,
      });
    const before = await stored(coafSummary.table, coafSummary.column);

    const report = await resealCaseTexts(handle.db, { holder: "instance-a" });
    expect(report).toMatchObject({ ran: true, counts: { recordsResealed: 0, unreadable: 2, remaining: 2 } });
    // Left as they were: a clear value is never sealed (that would launder it), an unreadable one never rewritten.
    expect(await stored(coafSummary.table, coafSummary.column)).toEqual(before);
  });
});

function sqlSelect(table: string, column: string) {
  return sql`select ${sql.identifier(column)} as value from ${sql.identifier(table)} where ${sql.identifier(column)} is not null order by 1`;
}
