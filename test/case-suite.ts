import "server-only";

import { eq } from "drizzle-orm";
import { afterAll, beforeAll, vi } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { assignCase } from "@/lib/cases/server/assignment";
import type { CaseContext } from "@/lib/cases/server/context";
import { addNote } from "@/lib/cases/server/notes";
import { confirmOutcome, recordOutcome } from "@/lib/cases/server/outcome";
import { applyObservations, observe } from "@/lib/cases/server/store";
import type { Verification } from "@/lib/upstream/model/verification";
import { makeVerification, TEST_SETTINGS } from "@/test/cases";
import { stubTestEnvironment, type TestDatabase, type TestDatabaseKind } from "@/test/db";
import { lateBound } from "@/test/late-bound";

/*
 * A suite of case-work tests on one database (describeEachDatabase's): the test environment and the database are
 * set up before the suite's tests and undone after them, and the suite shares how it opens a case and reads the
 * trail. Vitest only (it registers hooks); test/cases.ts holds what the benchmark shares too.
 */

/** The open queue, oldest first, in one page large enough for a suite's cases. */
export const OPEN_QUEUE = { queue: "open", sort: "age", page: 1, per_page: 200 } as const;

export interface CaseSuite {
  /** The suite's database, open from its first beforeAll until its last afterAll (see lateBound). */
  readonly handle: TestDatabase;
  /** A case opened for a new verification: in review with no red flag, unless overridden. */
  openCase(overrides?: Parameters<typeof makeVerification>[0]): Promise<Verification>;
  /** The audit events that name this verification, in order. */
  auditOf(publicId: string): Promise<Array<typeof auditEvents.$inferSelect>>;
  /**
   * Works the case to a confirmed approval: the author takes it, adds `note`, recommends approval (identity confirmed,
   * with `comment`), and the confirmer agrees.
   */
  workToConfirmedApproval(
    publicId: string,
    people: { author: CaseContext; confirmer: CaseContext },
    text: { note: string; comment: string },
  ): Promise<void>;
}

/** Call at the top of a describeEachDatabase body: registers the suite's beforeAll and afterAll. */
export function caseSuite(kind: Pick<TestDatabaseKind, "open">): CaseSuite {
  let handle: TestDatabase | undefined;
  beforeAll(async () => {
    stubTestEnvironment();
    handle = await kind.open();
  });
  afterAll(async () => {
    await handle?.dispose();
    vi.unstubAllEnvs();
  });
  const opened = lateBound(() => handle, "the suite's database");
  return {
    handle: opened,
    async openCase(overrides = {}) {
      const verification = makeVerification(overrides);
      await applyObservations(opened.db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
      return verification;
    },
    async auditOf(publicId) {
      return opened.db.select().from(auditEvents).where(eq(auditEvents.target, publicId)).orderBy(auditEvents.id);
    },
    async workToConfirmedApproval(publicId, { author, confirmer }, { note, comment }) {
      await assignCase(opened.db, author, publicId, "me");
      await addNote(opened.db, author, publicId, note);
      await recordOutcome(opened.db, author, publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment });
      await confirmOutcome(opened.db, confirmer, publicId, { agree: true, comment: "" });
    },
  };
}
