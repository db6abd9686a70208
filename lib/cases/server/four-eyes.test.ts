import { expect, it } from "vitest";

import { BUILT_IN_PERMISSIONS } from "@/lib/auth/permissions";
import { createStaff, updateStaff } from "@/lib/auth/server/staff-store";
import { makeStaff, makeVerification, TEST_SETTINGS } from "@/test/cases";
import { describeEachDatabase, withDatabase, withTestEnvironment } from "@/test/db";

import { assignCase } from "./assignment";
import { type CaseContext } from "./context";
import { confirmOutcome, recordOutcome } from "./outcome";
import { applyObservations, observe } from "./store";

/*
 * Four eyes between people who predate the request, for a case outcome: its confirmation does not count from an
 * account the outcome's author created, re-enabled or gave its role after the outcome or within
 * FOUR_EYES_INDEPENDENCE_HOURS (24 here) before it.
 */

describeEachDatabase("case confirmation four eyes on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withDatabase(open);

  /** A flagged case the author has recorded a reprove on: it waits for a second person. */
  async function pendingOutcome(author: CaseContext): Promise<string> {
    const verification = makeVerification({ pepOrigin: "Senador" });
    await applyObservations(handle.db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
    await assignCase(handle.db, author, verification.publicId, "me");
    const recorded = await recordOutcome(handle.db, author, verification.publicId, {
      recommendation: "reprove",
      reasons: ["document_mismatch"],
      comment: "",
    });
    expect(recorded).toEqual({ outcomeState: "pending_confirmation" });
    return verification.publicId;
  }

  async function reviewerMadeBy(author: CaseContext | null): Promise<CaseContext> {
    const staff = await createStaff(handle.db, {
      email: `reviewer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@test.local`,
      name: "Reviewer",
      role: "reviewer",
      passwordHash: null,
      mustChangePassword: false,
      createdBy: author?.actor.id ?? null,
    });
    return { actor: { id: staff.id, email: staff.email, permissions: BUILT_IN_PERMISSIONS.reviewer }, ip: null };
  }

  it("an account the author invited, before or after the outcome, cannot confirm it (409 confirmer_not_independent)", async () => {
    const author = await makeStaff(handle.db, "admin");
    const before = await reviewerMadeBy(author);
    const publicId = await pendingOutcome(author);
    const after = await reviewerMadeBy(author);
    for (const confirmer of [before, after]) {
      await expect(confirmOutcome(handle.db, confirmer, publicId, { agree: true, comment: "" })).rejects.toMatchObject({
        code: "confirmer_not_independent",
      });
    }
    // Someone the author did not make confirms it.
    const independent = await reviewerMadeBy(null);
    expect(await confirmOutcome(handle.db, independent, publicId, { agree: true, comment: "" })).toEqual({ outcomeState: "confirmed" });
  });

  it("nor one the author gave its role after the outcome", async () => {
    const author = await makeStaff(handle.db, "admin");
    const analyst = await makeStaff(handle.db, "analyst");
    const publicId = await pendingOutcome(author);
    await updateStaff(handle.db, analyst.actor.id, { role: "reviewer" }, new Date(), author.actor.id);
    const promoted = { ...analyst, actor: { ...analyst.actor, permissions: BUILT_IN_PERMISSIONS.reviewer } };
    await expect(confirmOutcome(handle.db, promoted, publicId, { agree: false, comment: "" })).rejects.toMatchObject({
      code: "confirmer_not_independent",
    });
  });
});
