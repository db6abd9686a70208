import { eq } from "drizzle-orm";
import { expect, it } from "vitest";

import { AuditContentError, cpfHash, recordEvent } from "@/lib/audit-trail/server";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { cases, verificationIndex } from "@/lib/cases/server/tables";
import { makeStaff, makeVerification } from "@/test/cases";
import { describeEachDatabase, withDatabase, withTestEnvironment } from "@/test/db";

import { enrichList, enrichmentOf } from "./enrich";
import { knownVerificationsOf, subjectCpfHashOf } from "./known";

/*
 * What the dashboard knows beside the service's answer, on PGlite and PostgreSQL: the CPF hash that tags
 * views on the trail (from an unmasked view, remembered for masked ones, written safely by several
 * instances at once), the ref_id, and the open case's age and owner for the list.
 */

withTestEnvironment();

describeEachDatabase("known verifications on $name", ({ open }) => {
  const h = withDatabase(open);

  it("takes the hash from an unmasked document, remembers it for masked views, and knows nothing of strangers", async () => {
    const unmasked = makeVerification({ document: "390.533.447-05", documentMasked: false });
    // Several instances viewing at once: the same idempotent upsert, no error, one row.
    const hashes = await Promise.all(Array.from({ length: 5 }, () => subjectCpfHashOf(h.db, unmasked)));
    expect(new Set(hashes)).toEqual(new Set([cpfHash("39053344705")]));
    expect(await h.db.select().from(verificationIndex).where(eq(verificationIndex.publicId, unmasked.publicId))).toHaveLength(1);

    const maskedLater = { ...unmasked, document: "***.533.447-**", documentMasked: true };
    expect(await subjectCpfHashOf(h.db, maskedLater)).toBe(cpfHash("39053344705"));
    expect(await subjectCpfHashOf(h.db, makeVerification())).toBeUndefined();
  });

  it("stores the subject's hash as the event's target hash, and refuses anything that is not a hash", async () => {
    const subjectCpfHash = cpfHash("52998224725");
    const { id } = await recordEvent(
      { actor: null, action: "verification.view", target: { type: "verification", id: "ver-x" }, subjectCpfHash, outcome: "success" },
      h.db,
    );
    const [row] = await h.db.select().from(auditEvents).where(eq(auditEvents.id, id));
    expect(row).toMatchObject({ target: "ver-x", targetHash: subjectCpfHash });
    await expect(
      recordEvent({ actor: null, action: "verification.view", subjectCpfHash: "529.982.247-25", outcome: "success" }, h.db),
    ).rejects.toBeInstanceOf(AuditContentError);
  });

  it("gives the list its ref_id and the open case's age and owner, and nothing for a closed case", async () => {
    const [withCase, closed, plain, unowned, closedWithRef] = [
      makeVerification(),
      makeVerification(),
      makeVerification(),
      makeVerification(),
      makeVerification(),
    ];
    await h.db.insert(verificationIndex).values([
      { publicId: withCase.publicId, refId: "REF-7" },
      { publicId: closedWithRef.publicId, refId: "REF-8" },
      // Indexed for its CPF only: no ref_id, no open case, nothing to show.
      { publicId: plain.publicId, cpfHash: cpfHash("52998224725") },
    ]);
    const owner = await makeStaff(h.db, "analyst");
    const openedAt = new Date("2026-11-20T12:00:00Z");
    await h.db.insert(cases).values([
      { publicId: withCase.publicId, upstreamStatus: "review", openedAt, dueAt: openedAt, assigneeId: owner.actor.id },
      { publicId: closed.publicId, upstreamStatus: "approved", status: "closed", dueAt: openedAt },
      { publicId: unowned.publicId, upstreamStatus: "review", openedAt, dueAt: openedAt },
      { publicId: closedWithRef.publicId, upstreamStatus: "reproved", status: "closed", dueAt: openedAt, assigneeId: owner.actor.id },
    ]);

    const ids = [withCase.publicId, closed.publicId, plain.publicId, unowned.publicId, closedWithRef.publicId];
    expect((await knownVerificationsOf(h.db, ids)).get(withCase.publicId)?.refId).toBe("REF-7");
    const columns = await enrichmentOf(h.db, ids);
    expect(columns[withCase.publicId]).toEqual({ refId: "REF-7", caseOpenedAt: openedAt.toISOString(), caseOwner: "analyst" });
    expect(columns).not.toHaveProperty(closed.publicId);
    expect(columns).not.toHaveProperty(plain.publicId);
    expect(columns[unowned.publicId]).toEqual({ refId: null, caseOpenedAt: openedAt.toISOString(), caseOwner: null });
    expect(columns[closedWithRef.publicId]).toEqual({ refId: "REF-8", caseOpenedAt: null, caseOwner: null });

    const list = await enrichList(h.db, {
      items: [withCase, closed, plain],
      pagination: { page: 1, perPage: 20, total: 3 },
      pagingAvailable: true,
    });
    expect(list.enrichment).toEqual({
      [withCase.publicId]: { refId: "REF-7", caseOpenedAt: openedAt.toISOString(), caseOwner: "analyst" },
    });
  });
});
