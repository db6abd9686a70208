import { eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";

import { httpStatusOf } from "@/lib/api/errors";
import { caseEntries } from "@/lib/cases/server/tables";
import { createDatabase } from "@/lib/db/client";
import { caseSuite, OPEN_QUEUE } from "@/test/case-suite";
import { makeStaff } from "@/test/cases";
import { describeEachDatabase } from "@/test/db";

import { assignCase } from "./assignment";
import { CaseTakenError } from "./context";
import { getCase } from "./detail";
import { addNote } from "./notes";
import { confirmOutcome, recordOutcome } from "./outcome";
import { listQueue } from "./queue";

/*
 * Case work by people: claims and assignment, outcomes and their four-eyes confirmation, notes, and the audit
 * trail of each.
 */

describeEachDatabase("case work on $name", ({ open }) => {
  const { handle, openCase, auditOf, workToConfirmedApproval } = caseSuite({ open });

  it("a claim race from two database connections has one winner; the other is told who holds it", async () => {
    const first = await makeStaff(handle.db, "analyst");
    const second = await makeStaff(handle.db, "analyst");
    const verification = await openCase();
    // PostgreSQL: a second, independent pool on the same database, as a second instance would have.
    const other = handle.url ? await createDatabase({ url: handle.url }) : null;
    try {
      const results = await Promise.allSettled([
        assignCase(handle.db, first, verification.publicId, "me"),
        assignCase(other?.db ?? handle.db, second, verification.publicId, "me"),
      ]);
      const won = results.filter((result) => result.status === "fulfilled");
      const lost = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]!.reason).toBeInstanceOf(CaseTakenError);
      const winner = results[0]!.status === "fulfilled" ? first : second;
      expect(httpStatusOf(lost[0]!.reason as CaseTakenError)).toBe(409);
      expect((lost[0]!.reason as CaseTakenError).message).toContain(winner.actor.email);
      const detail = await getCase(handle.db, "primary", verification.publicId);
      expect(detail?.assignee?.id).toBe(winner.actor.id);
      expect(detail?.entries.filter((entry) => entry.kind === "assigned")).toHaveLength(1);
      const trail = await auditOf(verification.publicId);
      expect(trail.map((event) => [event.action, event.outcome])).toEqual(
        expect.arrayContaining([
          ["case.assign", "success"],
          ["case.assign", "failure"],
        ]),
      );
    } finally {
      await other?.close();
    }
  });

  it("assignment: claim, reassign and unassign by an admin; an analyst cannot assign others or take a held case", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const colleague = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const verification = await openCase();
    await expect(assignCase(handle.db, analyst, verification.publicId, colleague.actor.id)).rejects.toMatchObject({ code: "forbidden" });
    await assignCase(handle.db, analyst, verification.publicId, "me");
    // Claiming again is a no-op, naming one's own id is a claim (no takeover), and the colleague is refused.
    await expect(assignCase(handle.db, analyst, verification.publicId, "me")).resolves.toEqual({ assigneeId: analyst.actor.id });
    await expect(assignCase(handle.db, colleague, verification.publicId, colleague.actor.id)).rejects.toBeInstanceOf(CaseTakenError);
    await expect(assignCase(handle.db, colleague, verification.publicId, null)).rejects.toMatchObject({ code: "forbidden" });
    await assignCase(handle.db, admin, verification.publicId, colleague.actor.id);
    expect((await getCase(handle.db, "primary", verification.publicId))?.assignee?.id).toBe(colleague.actor.id);
    await assignCase(handle.db, admin, verification.publicId, null);
    expect((await getCase(handle.db, "primary", verification.publicId))?.assignee).toBeNull();
    await expect(assignCase(handle.db, admin, verification.publicId, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "validation",
      fields: ["assignee"],
    });
    await expect(assignCase(handle.db, analyst, "no-such-case", "me")).rejects.toMatchObject({ code: "not_found" });
    const kinds = (await getCase(handle.db, "primary", verification.publicId))!.entries.map((entry) => entry.kind);
    expect(kinds).toEqual(["opened", "assigned", "assigned", "unassigned"]);
  });

  it("only the assignee records an outcome; four eyes: the author cannot confirm, another analyst or an admin can", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const other = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const verification = await openCase();
    const outcome = { recommendation: "reprove", reasons: ["document_mismatch"], comment: "Name differs." } as const;
    await expect(
      recordOutcome(handle.db, author, verification.publicId, { ...outcome, reasons: [...outcome.reasons] }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await assignCase(handle.db, author, verification.publicId, "me");
    await expect(
      recordOutcome(handle.db, other, verification.publicId, { ...outcome, reasons: [...outcome.reasons] }),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect(await recordOutcome(handle.db, author, verification.publicId, { ...outcome, reasons: [...outcome.reasons] })).toEqual({
      outcomeState: "pending_confirmation",
    });
    expect(
      (await listQueue(handle.db, "primary", { ...OPEN_QUEUE, queue: "confirming" }, other.actor)).items.map((item) => item.publicId),
    ).toContain(verification.publicId);
    await expect(confirmOutcome(handle.db, author, verification.publicId, { agree: true, comment: "" })).rejects.toMatchObject({
      code: "forbidden",
    });
    // Another analyst disagrees: back to the author, who records again; an admin then confirms.
    expect(await confirmOutcome(handle.db, other, verification.publicId, { agree: false, comment: "Check the mother's name." })).toEqual({
      outcomeState: "rejected",
    });
    await expect(confirmOutcome(handle.db, admin, verification.publicId, { agree: true, comment: "" })).rejects.toMatchObject({
      code: "conflict",
    });
    await recordOutcome(handle.db, author, verification.publicId, { ...outcome, reasons: ["document_mismatch", "other"] });
    expect(await confirmOutcome(handle.db, admin, verification.publicId, { agree: true, comment: "" })).toEqual({
      outcomeState: "confirmed",
    });
    await expect(
      recordOutcome(handle.db, author, verification.publicId, { ...outcome, reasons: [...outcome.reasons] }),
    ).rejects.toMatchObject({
      code: "conflict",
    });
    const detail = await getCase(handle.db, "primary", verification.publicId);
    expect(detail).toMatchObject({ outcomeState: "confirmed", reasons: ["document_mismatch", "other"] });
    expect(detail?.confirmedBy?.id).toBe(admin.actor.id);

    // An admin author cannot confirm their own either; an approval without flags needs nobody.
    const adminCase = await openCase({ restrictiveLists: [{ extra: {} }] });
    await assignCase(handle.db, admin, adminCase.publicId, "me");
    await recordOutcome(handle.db, admin, adminCase.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" });
    await expect(confirmOutcome(handle.db, admin, adminCase.publicId, { agree: true, comment: "" })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(confirmOutcome(handle.db, other, adminCase.publicId, { agree: true, comment: "" })).resolves.toEqual({
      outcomeState: "confirmed",
    });
    const plain = await openCase();
    await assignCase(handle.db, author, plain.publicId, "me");
    expect(
      await recordOutcome(handle.db, author, plain.publicId, { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" }),
    ).toEqual({
      outcomeState: "recorded",
    });
  });

  it("two confirmations at once: one wins", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const [a, b] = [await makeStaff(handle.db, "analyst"), await makeStaff(handle.db, "admin")];
    const verification = await openCase();
    await assignCase(handle.db, author, verification.publicId, "me");
    await recordOutcome(handle.db, author, verification.publicId, { recommendation: "reprove", reasons: ["other"], comment: "" });
    const other = handle.url ? await createDatabase({ url: handle.url }) : null;
    try {
      const results = await Promise.allSettled([
        confirmOutcome(handle.db, a, verification.publicId, { agree: true, comment: "" }),
        confirmOutcome(other?.db ?? handle.db, b, verification.publicId, { agree: false, comment: "no" }),
      ]);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      expect(
        (await getCase(handle.db, "primary", verification.publicId))!.entries.filter((entry) => entry.kind === "confirmation"),
      ).toHaveLength(1);
    } finally {
      await other?.close();
    }
  });

  it("notes are append-only plain text kept verbatim (inert), and never reach the audit trail", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const verification = await openCase();
    const text = `<img src=x onerror="alert(1)"> <script>alert(2)</script> CPF 529.982.247-25 https://example.test/`;
    // Notes are the assignee's (or a queue runner's): the analyst takes the case first.
    await assignCase(handle.db, analyst, verification.publicId, "me");
    await addNote(handle.db, analyst, verification.publicId, text);
    const [entry] = await handle.db
      .select()
      .from(caseEntries)
      .where(eq(caseEntries.kind, "note"))
      .orderBy(sql`${caseEntries.id} desc`)
      .limit(1);
    // Sealed at rest (sealed-text.ts): the row holds an envelope, the case answers the words.
    expect(entry?.text).toMatch(/^v1\./);
    expect(entry?.text).not.toContain("alert");
    const detail = await getCase(handle.db, "primary", verification.publicId);
    expect(detail?.entries.at(-1)).toMatchObject({ kind: "note", text, actor: { id: analyst.actor.id } });
    const trail = await auditOf(verification.publicId);
    expect(trail.map((event) => event.action)).toContain("case.note_add");
    const serialized = JSON.stringify(trail);
    expect(serialized).not.toContain("alert");
    expect(serialized).not.toContain("example.test");
    expect(trail.find((event) => event.action === "case.note_add")?.details).toEqual({ length: text.length });
  });

  it("every action is on the audit trail with its actor and address", async () => {
    const analyst = await makeStaff(handle.db, "analyst");
    const admin = await makeStaff(handle.db, "admin");
    const verification = await openCase({ pepOrigin: "Vereador" });
    await workToConfirmedApproval(verification.publicId, { author: analyst, confirmer: admin }, { note: "ok", comment: "c" });
    await assignCase(handle.db, admin, verification.publicId, null);
    const trail = await auditOf(verification.publicId);
    expect(trail.map((event) => [event.action, event.actorId, event.outcome, event.ip, event.targetType])).toEqual([
      ["case.assign", analyst.actor.id, "success", "203.0.113.9", "verification"],
      ["case.note_add", analyst.actor.id, "success", "203.0.113.9", "verification"],
      ["case.outcome", analyst.actor.id, "success", "203.0.113.9", "verification"],
      ["case.confirm", admin.actor.id, "success", "203.0.113.9", "verification"],
      ["case.unassign", admin.actor.id, "success", "203.0.113.9", "verification"],
    ]);
  });
});
