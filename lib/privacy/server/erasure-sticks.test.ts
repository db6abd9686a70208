import { randomUUID } from "node:crypto";

import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, onTestFinished, vi } from "vitest";

import { cpfHash, cpfHashes } from "@/lib/audit-trail/server/record";
import { staffUsers } from "@/lib/auth/server/tables";
import { rekeySearchIndex, type RekeyClient } from "@/lib/cases/server/rekey";
import { searchVerifications } from "@/lib/cases/server/search";
import { searchIndexErased, verificationIndex } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import type { Verification } from "@/lib/upstream/model/verification";
import { learnFromListPage, subjectCpfHashOf } from "@/lib/verifications/server/known";
import { makeStaff } from "@/test/cases";
import { describeEachDatabase, stubTestEnvironment, TEST_SECRETS } from "@/test/db";

import { confirmErasure, requestErasure, type ErasureContext } from "./erasure";
import { buildTitularReport } from "./titular-report";

/*
 * An erasure sticks: once confirmed, the person's keyed hashes are remembered (search_index_erased) and every write
 * to the search index skips them: an unmasked list page, a verification's page, the re-keying after a rotation. The
 * titular report says the erasure happened: its request, who asked, who confirmed, when.
 */

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

const SUBJECT = "52998224725";
const OTHER = "11144477735";
const NEW_KEY = "rotated-audit-key-0123456789abcdefghijkl";

/** A verification as a list page or a detail read brings it, its document unmasked. */
function read(cpf: string, publicId: string = randomUUID()): Verification {
  return { publicId, document: cpf, documentMasked: false } as unknown as Verification;
}

/** A member holding `privacy.erase`, whose account predates the request by a month. */
async function member(db: Database): Promise<ErasureContext> {
  const staff = await makeStaff(db, "admin");
  await db
    .update(staffUsers)
    .set({ createdAt: new Date(Date.now() - 30 * 86_400_000) })
    .where(eq(staffUsers.id, staff.actor.id));
  return { actor: { id: staff.actor.id, email: staff.actor.email }, ip: "203.0.113.7" };
}

async function indexedUnder(db: Database, cpf: string): Promise<string[]> {
  const rows = await db
    .select({ publicId: verificationIndex.publicId })
    .from(verificationIndex)
    .where(inArray(verificationIndex.cpfHash, cpfHashes(cpf)));
  return rows.map((row) => row.publicId);
}

describeEachDatabase("an erasure sticks on $name", ({ open }) => {
  async function erased() {
    const handle = await open();
    onTestFinished(() => handle.dispose());
    const { db } = handle;
    const [asker, confirmer] = [await member(db), await member(db)];
    const seen = read(SUBJECT);
    await learnFromListPage(db, [seen, read(OTHER)]);
    expect(await indexedUnder(db, SUBJECT)).toEqual([seen.publicId]);
    const { id } = await requestErasure(db, asker, { cpf: SUBJECT, reason: "LGPD art. 18 request" });
    await confirmErasure(db, confirmer, id);
    expect(await indexedUnder(db, SUBJECT)).toEqual([]);
    return { db, id, asker, confirmer, seen };
  }

  it("no later unmasked list read or detail read indexes the person again; others still are", async () => {
    const { db, seen } = await erased();
    const other = read(OTHER);
    await learnFromListPage(db, [seen, read(SUBJECT), read(SUBJECT, seen.publicId), other]);
    await subjectCpfHashOf(db, read(SUBJECT));
    expect(await indexedUnder(db, SUBJECT)).toEqual([]);
    expect(await indexedUnder(db, OTHER)).toContain(other.publicId);
    expect((await searchVerifications(db, { cpf: SUBJECT }, "primary")).length).toBe(0);
    // Hashes only: the table never holds the CPF.
    const remembered = await db.select().from(searchIndexErased);
    expect(remembered.map((row) => row.cpfHash)).toEqual([cpfHash(SUBJECT)]);
    expect(JSON.stringify(remembered)).not.toContain(SUBJECT);
  });

  it("holds across an audit key rotation: a read and the re-keying job leave the person out, even once the old key is gone", async () => {
    const { db } = await erased();
    onTestFinished(() => stubTestEnvironment());
    // A row left behind under the old key (written by an instance that had not yet heard of the erasure).
    const stale = randomUUID();
    await db
      .insert(verificationIndex)
      .values({ publicId: stale, cpfHash: cpfHash(SUBJECT), cpfKeyId: "1", documentMasked: "***.982.247-**" });
    stubTestEnvironment({ AUDIT_HASH_SECRET: `2:${NEW_KEY},1:${TEST_SECRETS.AUDIT_HASH_SECRET}` });
    // The service still holds the person's verification: re-read, it is dropped, never re-keyed; the other person's is.
    const client: RekeyClient = { getVerification: (publicId) => Promise.resolve(read(publicId === stale ? SUBJECT : OTHER, publicId)) };
    expect(await rekeySearchIndex(db, { client, holder: "test", batch: 10 })).toMatchObject({ ran: true, dropped: 1, rekeyed: 1 });
    expect(await indexedUnder(db, SUBJECT)).toEqual([]);
    // The new key's hash is remembered as soon as the person is met again under it.
    const [newHash] = cpfHashes(SUBJECT);
    expect((await db.select().from(searchIndexErased).where(eq(searchIndexErased.cpfHash, newHash!))).length).toBe(1);

    stubTestEnvironment({ AUDIT_HASH_SECRET: `2:${NEW_KEY}` });
    await learnFromListPage(db, [read(SUBJECT)]);
    expect(await indexedUnder(db, SUBJECT)).toEqual([]);
  });

  it("the titular report says the erasure happened: when, by whom, the request's id", async () => {
    const { db, id, asker, confirmer } = await erased();
    const report = await buildTitularReport(db, SUBJECT, { locale: "en" });
    expect(report.erasures).toEqual([
      {
        id,
        requestedAt: expect.any(String),
        requestedBy: { name: "admin", email: asker.actor.email },
        confirmedAt: expect.any(String),
        confirmedBy: { name: "admin", email: confirmer.actor.email },
      },
    ]);
    expect((await buildTitularReport(db, OTHER, { locale: "en" })).erasures).toEqual([]);
  });
});
