import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import { and, asc, eq, inArray } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffUsers } from "@/lib/auth/server/tables";
import { assignCase } from "@/lib/cases/server/assignment";
import { escalateCase, escalateOverdueCases } from "@/lib/cases/server/escalation";
import { addNote, notifyMentions } from "@/lib/cases/server/notes";
import { notifyConfirmationWaiting, recordOutcome } from "@/lib/cases/server/outcome";
import { caseEntries, caseQueueMembers, cases, DEFAULT_QUEUE_ID } from "@/lib/cases/server/tables";
import { markReadSchema } from "@/lib/notifications/validation";
import { makeStaff } from "@/test/cases";
import { stubConfigEnv } from "@/test/config";
import { describeEachDatabase, withTestEnvironment, type TestDatabase } from "@/test/db";

import { listNotifications, markRead } from "./inbox";
import { mentionTokens, resolveMentions } from "./mentions";
import { messageFor } from "./messages";
import { notify } from "./notify";
import { MAX_ATTEMPTS, processOutbox, safeError } from "./outbox";
import { notificationCases, notificationOutbox, notifications } from "./tables";
import { configuredTransports, type Transports } from "./transports";

withTestEnvironment();

const CPF = "529.982.247-25";

describe("mentions and messages", () => {
  it("reads @name and @email, once each, without trailing punctuation or e-mail addresses in the text", () => {
    expect(mentionTokens("Ask @Ana and @bruno.lima@corp.example.net, also @ana. Mail x@y.com")).toEqual([
      "ana",
      "bruno.lima@corp.example.net",
    ]);
    const members = [
      { id: "1", email: "ana.souza@corp.example.net", name: "Ana Souza" },
      { id: "2", email: "bruno.lima@corp.example.net", name: "Bruno Lima" },
      { id: "3", email: "ana.paula@corp.example.net", name: "Ana Paula" },
    ];
    // "ana" is two people: nobody; the whole name, the email's local part or the email name one.
    expect(resolveMentions(["ana"], members)).toEqual([]);
    expect(resolveMentions(["anasouza", "bruno.lima@corp.example.net", "ana.paula"], members)).toEqual(["1", "2", "3"]);
  });

  it("marks read by ids or all, never both or neither", () => {
    expect(markReadSchema.safeParse({ all: true }).success).toBe(true);
    expect(markReadSchema.safeParse({ ids: [1, 2] }).success).toBe(true);
    expect(markReadSchema.safeParse({}).error?.issues[0]?.path).toEqual(["ids"]);
    expect(markReadSchema.safeParse({ ids: [1], all: true }).success).toBe(false);
    expect(markReadSchema.safeParse({ ids: ["x"] }).error?.issues[0]?.path).toEqual(["ids", 0]);
  });
});

describeEachDatabase("notifications on $name", ({ open }) => {
  let handle: TestDatabase;
  let sequence = 0;
  beforeAll(async () => {
    handle = await open();
  });
  afterAll(async () => {
    await handle?.dispose();
  });

  /** A case in review; `assignee` works it (notes are the assignee's). */
  async function openCase({ overdue = false, assignee = null as string | null } = {}) {
    sequence += 1;
    const publicId = `0b9a4c1e-5d2f-4e8a-9c71-${String(sequence).padStart(12, "0")}-${Math.random().toString(36).slice(2, 6)}`;
    const dueAt = new Date(Date.now() + (overdue ? -3_600_000 : 3_600_000));
    await handle.db.insert(cases).values({
      publicId,
      upstreamStatus: "review",
      dueAt,
      documentMasked: "***.982.247-**",
      assigneeId: assignee,
      assignedAt: assignee ? new Date() : null,
    });
    return publicId;
  }

  async function notificationsOf(userId: string, kind?: string) {
    const rows = await handle.db.select().from(notifications).where(eq(notifications.userId, userId));
    return kind ? rows.filter((row) => row.kind === kind) : rows;
  }

  /** The cases of the member's digests. */
  const digestCasesOf = async (userId: string) =>
    (
      await handle.db
        .select({ publicId: notificationCases.casePublicId })
        .from(notificationCases)
        .innerJoin(notifications, and(eq(notifications.id, notificationCases.notificationId), eq(notifications.userId, userId)))
    ).map((row) => row.publicId);

  it("a mention in a note tells the member once, even when the same note is processed twice, without its text", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const mentioned = await makeStaff(handle.db, "analyst");
    const viewer = await makeStaff(handle.db, "viewer");
    await handle.db.update(staffUsers).set({ name: "Carla Nogueira" }).where(eq(staffUsers.id, mentioned.actor.id));
    const publicId = await openCase({ assignee: author.actor.id });
    const text = `@CarlaNogueira and @${viewer.actor.email} please look: CPF ${CPF}`;
    const note = await addNote(handle.db, author, publicId, text);
    await notifyMentions(handle.db, { noteId: note.id, text, casePublicId: publicId, authorId: author.actor.id });
    const told = await notificationsOf(mentioned.actor.id, "mention");
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ casePublicId: publicId, dedupeKey: String(note.id), actorId: author.actor.id, readAt: null });
    expect(JSON.stringify(told)).not.toContain("CPF");
    // A viewer can read cases: mentioned by email, told too; the author is never told of their own note.
    expect(await notificationsOf(viewer.actor.id, "mention")).toHaveLength(1);
    expect(await notificationsOf(author.actor.id, "mention")).toHaveLength(0);
    // A second note mentioning them is a second notification.
    await addNote(handle.db, author, publicId, "@carlanogueira again");
    expect(await notificationsOf(mentioned.actor.id, "mention")).toHaveLength(2);

    const inbox = await listNotifications(handle.db, mentioned.actor.id, null);
    expect(inbox.unread).toBe(2);
    expect(inbox.items[0]).toMatchObject({ kind: "mention", casePublicId: publicId, read: false });
    expect(await markRead(handle.db, mentioned.actor.id, null, { ids: [inbox.items[0]!.id] })).toEqual({ marked: 1, unread: 1 });
    // Another member's ids mark nothing of theirs.
    expect(await markRead(handle.db, viewer.actor.id, null, { ids: [inbox.items[1]!.id] })).toMatchObject({ marked: 0 });
    expect(await markRead(handle.db, mentioned.actor.id, null, { all: true })).toEqual({ marked: 1, unread: 0 });
  });

  it("an outcome waiting for confirmation tells those who can confirm, its author excepted, once", async () => {
    const author = await makeStaff(handle.db, "analyst");
    const confirmer = await makeStaff(handle.db, "reviewer");
    const viewer = await makeStaff(handle.db, "viewer");
    const publicId = await openCase();
    await assignCase(handle.db, author, publicId, "me");
    const outcome = { recommendation: "reprove" as const, reasons: ["document_mismatch" as const], comment: "Birth date differs." };
    expect(await recordOutcome(handle.db, author, publicId, outcome)).toEqual({ outcomeState: "pending_confirmation" });
    expect(await notificationsOf(confirmer.actor.id, "confirmation_waiting")).toHaveLength(1);
    expect(await notificationsOf(author.actor.id, "confirmation_waiting")).toHaveLength(0);
    expect(await notificationsOf(viewer.actor.id, "confirmation_waiting")).toHaveLength(0);
    // The same outcome's notification made again (a retried job) is not a second one.
    const [caseRow] = await handle.db.select({ id: cases.id }).from(cases).where(eq(cases.publicId, publicId));
    const [last] = await handle.db
      .select({ id: caseEntries.id })
      .from(caseEntries)
      .where(and(eq(caseEntries.caseId, caseRow!.id), eq(caseEntries.kind, "outcome")));
    expect(
      (await notifyConfirmationWaiting(handle.db, { entryId: last!.id, casePublicId: publicId, authorId: author.actor.id })).created,
    ).toBe(0);
    expect(await notificationsOf(confirmer.actor.id, "confirmation_waiting")).toHaveLength(1);
  });

  it("escalates an overdue case once, even when two runs race: raised, on the timeline, leads told in a digest, audited", async () => {
    const lead = await makeStaff(handle.db, "analyst");
    const member = await makeStaff(handle.db, "analyst");
    await handle.db.insert(caseQueueMembers).values([
      { queueId: DEFAULT_QUEUE_ID, userId: lead.actor.id, lead: true },
      { queueId: DEFAULT_QUEUE_ID, userId: member.actor.id, lead: false },
    ]);
    const overdue = await openCase({ overdue: true });
    const onTime = await openCase();
    const [caseRow] = await handle.db.select().from(cases).where(eq(cases.publicId, overdue));

    // Two instances' runs at once (each its own lease holder), and two direct escalations of the same case.
    const runs = await Promise.all([
      escalateOverdueCases(handle.db, { holder: "instance-a" }),
      escalateOverdueCases(handle.db, { holder: "instance-b" }),
      escalateCase(handle.db, caseRow!.id),
      escalateCase(handle.db, caseRow!.id),
    ]);
    const [a, b, direct1, direct2] = runs as [{ escalated: string[] }, { escalated: string[] }, boolean, boolean];
    const times = [a.escalated.includes(overdue), b.escalated.includes(overdue), direct1, direct2].filter(Boolean);
    expect(times).toHaveLength(1);
    // A later run finds nothing left to do.
    expect((await escalateOverdueCases(handle.db, { holder: "instance-a" })).escalated).not.toContain(overdue);

    const [after] = await handle.db.select().from(cases).where(eq(cases.publicId, overdue));
    expect(after!.escalatedAt).not.toBeNull();
    const [untouched] = await handle.db.select().from(cases).where(eq(cases.publicId, onTime));
    expect(untouched!.escalatedAt).toBeNull();
    const entries = await handle.db
      .select()
      .from(caseEntries)
      .where(and(eq(caseEntries.caseId, caseRow!.id), eq(caseEntries.kind, "escalated")));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.details).toMatchObject({ reason: "overdue" });
    expect(await digestCasesOf(lead.actor.id)).toEqual([overdue]);
    expect(await notificationsOf(member.actor.id, "overdue_digest")).toHaveLength(0);
    expect(await notificationsOf(lead.actor.id, "case_overdue")).toHaveLength(0);
    const audit = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, overdue), eq(auditEvents.action, "case.escalate")));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorId).toBeNull();
    await handle.db.delete(caseQueueMembers).where(eq(caseQueueMembers.queueId, DEFAULT_QUEUE_ID));
  });

  it("with no lead in the queue, the members who assign cases are told of an overdue case", async () => {
    const assigner = await makeStaff(handle.db, "reviewer");
    const analyst = await makeStaff(handle.db, "analyst");
    const overdue = await openCase({ overdue: true });
    await escalateOverdueCases(handle.db, { holder: "instance-c" });
    expect(await digestCasesOf(assigner.actor.id)).toContain(overdue);
    expect(await notificationsOf(analyst.actor.id, "overdue_digest")).toHaveLength(0);
  });

  describe("sent out", () => {
    let smtp: SMTPServer;
    let received: { to: string[]; data: string }[];
    let chat: Server;
    let chatBodies: string[];
    let chatStatus = 200;
    let logins: string[];

    beforeAll(async () => {
      received = [];
      chatBodies = [];
      logins = [];
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS"],
        // The plain-text password this server would learn.
        allowInsecureAuth: true,
        onAuth(auth, _session, callback) {
          logins.push(`${auth.username}:${auth.password}`);
          callback(null, { user: auth.username });
        },
        onData(stream, session, callback) {
          let data = "";
          stream.on("data", (chunk: Buffer) => (data += chunk.toString("utf8")));
          stream.on("end", () => {
            received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
      chat = createServer((request, response) => {
        let body = "";
        request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        request.on("end", () => {
          chatBodies.push(body);
          response.writeHead(chatStatus, { "content-type": "text/plain" }).end(chatStatus === 200 ? "ok" : "no");
        });
      });
      await new Promise<void>((resolve) => chat.listen(0, "127.0.0.1", resolve));
      const smtpPort = (smtp.server.address() as AddressInfo).port;
      const chatPort = (chat.address() as AddressInfo).port;
      stubConfigEnv({
        SMTP_URL: `smtp://notifier:s3cret-smtp-pass@127.0.0.1:${smtpPort}`,
        // This test server offers no STARTTLS: sending to it with credentials takes the loopback opt-out.
        SMTP_PLAINTEXT_LOOPBACK: "on",
        SMTP_FROM: "kyc@corp.example.net",
        CHAT_WEBHOOK_URL: `http://127.0.0.1:${chatPort}/hooks/T000/B000/secret-chat-path`,
        NEXTAUTH_URL: "https://kyc.example.net",
      });
    });
    afterAll(async () => {
      stubConfigEnv({ SMTP_URL: "", SMTP_PLAINTEXT_LOOPBACK: "", CHAT_WEBHOOK_URL: "", NEXTAUTH_URL: "" });
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => chat.close(() => resolve()));
    });

    async function clearOutbox() {
      await handle.db.delete(notificationOutbox);
    }

    it("an email reaches the SMTP server and the chat webhook its receiver: the case id and link, no CPF, no name", async () => {
      await clearOutbox();
      const author = await makeStaff(handle.db, "analyst");
      const mentioned = await makeStaff(handle.db, "analyst");
      await handle.db.update(staffUsers).set({ name: "Renata Quintela" }).where(eq(staffUsers.id, mentioned.actor.id));
      await handle.db.update(staffUsers).set({ name: "Otavio Brandao" }).where(eq(staffUsers.id, author.actor.id));
      const publicId = await openCase({ assignee: author.actor.id });
      await addNote(handle.db, author, publicId, `@${mentioned.actor.email} the CPF ${CPF} of Maria da Silva looks wrong`);
      const summary = await processOutbox(handle.db);
      expect(summary).toEqual({ sent: 2, failed: 0 });

      const mail = received.find((item) => item.to.includes(mentioned.actor.email));
      expect(mail).toBeDefined();
      // Quoted-printable may fold long lines: read the body unfolded.
      const text = mail!.data.replace(/=\r?\n/g, "");
      expect(text).toContain(publicId);
      expect(text).toContain(`https://kyc.example.net/c/primary/verifications/${publicId}`);
      for (const forbidden of [CPF, "52998224725", "Maria", "Renata", "Quintela", "Otavio", "looks wrong"])
        expect(text).not.toContain(forbidden);

      expect(chatBodies).toHaveLength(1);
      const posted = JSON.parse(chatBodies[0]!) as { text: string };
      expect(posted.text).toContain(publicId);
      expect(posted.text).toContain(`https://kyc.example.net/c/primary/verifications/${publicId}`);
      for (const forbidden of [CPF, "Maria", "Renata", "Otavio"]) expect(posted.text).not.toContain(forbidden);

      const rows = await handle.db.select().from(notificationOutbox);
      expect(rows.every((row) => row.sentAt !== null && row.attempts === 1)).toBe(true);
      // Each send is on the trail, its intent before its outcome, with neither the address nor the words.
      const sends = await handle.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.action, "notification.send"),
            inArray(
              auditEvents.target,
              rows.map((row) => String(row.id)),
            ),
          ),
        )
        .orderBy(asc(auditEvents.id));
      // Sent one after the other, in the outbox's order.
      const ids = rows.map((row) => row.id).sort((a, b) => a - b);
      expect(sends.map((event) => [event.target, event.outcome])).toEqual(
        ids.flatMap((id) => [
          [String(id), "intent"],
          [String(id), "success"],
        ]),
      );
      const written = JSON.stringify(sends);
      for (const forbidden of [mentioned.actor.email, "looks wrong", CPF]) expect(written).not.toContain(forbidden);
      // Sent is sent: a second pass sends nothing again.
      expect(await processOutbox(handle.db)).toEqual({ sent: 0, failed: 0 });
    });

    it("smtp:// with credentials requires STARTTLS: a server that does not offer it gets no password, and the send fails", async () => {
      const smtpPort = (smtp.server.address() as AddressInfo).port;
      const before = received.length;
      logins.length = 0;
      stubConfigEnv({ SMTP_PLAINTEXT_LOOPBACK: "off" });
      try {
        const message = messageFor("case_assigned", { casePublicId: "abc" }, "https://kyc.example.net");
        await expect(configuredTransports().email("someone@corp.example.net", message)).rejects.toThrow(/STARTTLS/);
        // Even a URL asking nodemailer to skip TLS gets it required.
        stubConfigEnv({ SMTP_URL: `smtp://notifier:s3cret-smtp-pass@127.0.0.1:${smtpPort}?ignoreTLS=true` });
        await expect(configuredTransports().email("someone@corp.example.net", message)).rejects.toThrow(/STARTTLS/);
        expect(logins).toEqual([]);
        expect(received).toHaveLength(before);
      } finally {
        stubConfigEnv({ SMTP_URL: `smtp://notifier:s3cret-smtp-pass@127.0.0.1:${smtpPort}`, SMTP_PLAINTEXT_LOOPBACK: "on" });
      }
    });

    it("a failed chat post is retried later; the error kept names no secret", async () => {
      await clearOutbox();
      chatStatus = 500;
      const user = await makeStaff(handle.db, "analyst");
      await notify(handle.db, { userIds: [user.actor.id], kind: "case_assigned", casePublicId: await openCase() });
      expect(await processOutbox(handle.db)).toEqual({ sent: 1, failed: 1 });
      const [failed] = await handle.db.select().from(notificationOutbox).where(eq(notificationOutbox.channel, "chat"));
      expect(failed).toMatchObject({ sentAt: null, attempts: 1, lockedUntil: null });
      expect(failed!.lastError).toContain("500");
      const [failure] = await handle.db
        .select()
        .from(auditEvents)
        .where(
          and(eq(auditEvents.action, "notification.send"), eq(auditEvents.target, String(failed!.id)), eq(auditEvents.outcome, "failure")),
        );
      expect(failure?.details).toMatchObject({ channel: "chat", attempt: 1, error: "Error" });
      expect(failed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 10_000);
      // Not due yet: nothing taken. Due again and the receiver back: sent.
      expect(await processOutbox(handle.db)).toEqual({ sent: 0, failed: 0 });
      chatStatus = 200;
      await handle.db
        .update(notificationOutbox)
        .set({ nextAttemptAt: new Date(Date.now() - 1000) })
        .where(eq(notificationOutbox.id, failed!.id));
      expect(await processOutbox(handle.db)).toEqual({ sent: 1, failed: 0 });
      expect(safeError(new Error("connect to smtp://notifier:s3cret-smtp-pass@host failed"))).not.toContain("s3cret-smtp-pass");
      expect(safeError(new Error("POST /hooks/T000/B000/secret-chat-path refused"))).not.toContain("secret-chat-path");
    });

    it("gives up after MAX_ATTEMPTS failed sends, and two senders never take the same message", async () => {
      await clearOutbox();
      const user = await makeStaff(handle.db, "analyst");
      await notify(handle.db, { userIds: [user.actor.id], kind: "case_overdue", casePublicId: await openCase() });
      let calls = 0;
      const failing: Transports = {
        email: async () => {
          calls += 1;
          throw new Error("421 try later (smtp://notifier:s3cret-smtp-pass@host)");
        },
        chat: async () => {
          calls += 1;
          throw new Error("chat down");
        },
      };
      for (let attempt = 0; attempt < MAX_ATTEMPTS + 2; attempt += 1) {
        await Promise.all([processOutbox(handle.db, { transports: failing }), processOutbox(handle.db, { transports: failing })]);
        await handle.db.update(notificationOutbox).set({ nextAttemptAt: new Date(Date.now() - 1000) });
      }
      // Two messages (email, chat), each tried exactly MAX_ATTEMPTS times, never twice at once.
      expect(calls).toBe(2 * MAX_ATTEMPTS);
      const rows = await handle.db.select().from(notificationOutbox);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row).toMatchObject({ sentAt: null, attempts: MAX_ATTEMPTS });
        expect(row.lastError).not.toContain("s3cret-smtp-pass");
      }
      // The real transports are what processOutbox uses by default.
      expect(typeof configuredTransports().email).toBe("function");
    });
  });
});
