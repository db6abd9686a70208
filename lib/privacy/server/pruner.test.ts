import { randomUUID } from "node:crypto";

import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

import { recordEvent } from "@/lib/audit-trail/server";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { authChallenges, staffSessions } from "@/lib/auth/server/tables";
import { caseEntries, cases, suspiciousActivityReports, verificationIndex } from "@/lib/cases/server/tables";
import { config } from "@/lib/config";
import { createDatabase, type Database } from "@/lib/db/client";
import { liveEvents, rateLimits, upstreamCalls } from "@/lib/db/tables";
import { notificationOutbox, notifications } from "@/lib/notifications/server/tables";
import type { RetentionKind } from "@/lib/privacy/retention";
import { documentCrops } from "@/lib/verifications/server/tables";
import { parseDelivery } from "@/lib/webhooks/server/parse";
import { webhookDeliveries } from "@/lib/webhooks/server/tables";
import { makeStaff } from "@/test/cases";
import { describeEachDatabase, stubTestEnvironment, withDatabase } from "@/test/db";

import { LIVE_EVENTS_DAYS, retentionPolicies } from "./policies";
import { runRetention, type AuditPruner } from "./pruner";
import { retentionReport } from "./report";
import { privacyRequests } from "./tables";
import { shortenDeliveryBody } from "./webhook-body";

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

const DAY = 86_400_000;
// A fixed past moment: rows the database stamps with its own clock (staff creation's audit events, say) are
// younger than every cutoff, so only the rows written here are ever past a policy.
const NOW = new Date("2026-03-02T12:00:00.000Z");
const DAYS: Record<RetentionKind, number> = {
  audit_events: 400,
  case_notes: 10,
  cases: 100,
  webhook_bodies: 5,
  webhook_deliveries: 50,
  search_index: 30,
  staff_sessions: 183,
  rate_limits: 0,
  notifications: 20,
  notification_outbox: 15,
  live_events: LIVE_EVENTS_DAYS,
  auth_challenges: 0,
  document_crops: 60,
  upstream_calls: 400,
  privacy_requests: 90,
  suspicious_activity_reports: 1826,
};
const policies = () => retentionPolicies().map((policy) => ({ ...policy, days: DAYS[policy.kind] }));
const cutoff = (kind: RetentionKind) => NOW.getTime() - Math.round(DAYS[kind] * DAY);
/** One second past the policy (removed) and one second within it (kept). */
const past = (kind: RetentionKind) => new Date(cutoff(kind) - 1000);
const within = (kind: RetentionKind) => new Date(cutoff(kind) + 1000);

const FLAT = {
  event: "verification.approved",
  verification_id: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
  ref_id: "client-42",
  status: "approved",
  identity_score: 97,
  fraud_score: 3,
  occurred_at: "2026-01-10T10:00:00Z",
  extra: { name: "Maria da Silva", document: "529.982.247-25" },
};
const ENVELOPE = {
  id: "evt_123",
  event: "verification.decided",
  occurred_at: "2026-01-10T10:00:00Z",
  tenant_public_id: "tenant-9",
  resource: { type: "verification", public_id: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a11", name: "Maria" },
  verification: { status: "approved", ref_id: "client-43", decided_at: "2026-01-10T10:00:00Z", person: { cpf: "52998224725" } },
};

describe("webhook bodies shortened", () => {
  it("keeps exactly what processing reads: the same event is read back, the rest is gone", () => {
    for (const body of [FLAT, ENVELOPE]) {
      const raw = JSON.stringify(body);
      const short = shortenDeliveryBody(raw);
      expect(parseDelivery(short)).toEqual(parseDelivery(raw));
      // Only what processing reads stays (the scores, the decision time and the tenant among it): no name, no document.
      expect(short).not.toMatch(/Maria|529|name|cpf|document|extra/);
      expect(shortenDeliveryBody(short)).toBe(short);
    }
    expect(shortenDeliveryBody("not json")).toBe("{}");
    expect(shortenDeliveryBody("[1]")).toBe("{}");
  });
});

describe("retention policies", () => {
  it("covers every kind with a reason, audit events at least six months", () => {
    const list = retentionPolicies();
    expect(list.map((policy) => policy.kind)).toHaveLength(16);
    for (const policy of list) expect(policy.reason.length).toBeGreaterThan(20);
    const audit = list.find((policy) => policy.kind === "audit_events")!;
    expect(audit.days).toBe(1825);
    expect(audit.reason).toContain("Marco Civil");
    expect(retentionPolicies({ ...config(), auditRetentionDays: 30 }).find((p) => p.kind === "audit_events")?.days).toBe(183);
  });
});

describeEachDatabase("retention pruner on $name", ({ open }) => {
  const handle = withDatabase(open);

  const id = () => randomUUID();

  async function seed(db: Database) {
    const staff = await makeStaff(db, "analyst");
    const userId = staff.actor.id;
    const ids: Record<string, string> = {};
    const closedCase = async (name: string, closedAt: Date | null, text: string | null) => {
      ids[name] = id();
      const [row] = await db
        .insert(cases)
        .values({
          publicId: ids[name],
          status: closedAt ? "closed" : "open",
          upstreamStatus: closedAt ? "approved" : "review",
          dueAt: new Date(NOW.getTime() - 400 * DAY),
          openedAt: new Date(NOW.getTime() - 400 * DAY),
          closedAt,
          outcomeComment: text,
        })
        .returning({ id: cases.id });
      await db.insert(caseEntries).values([
        { caseId: row!.id, kind: "opened", at: new Date(NOW.getTime() - 400 * DAY) },
        { caseId: row!.id, kind: "note", text, actorId: userId, at: new Date(NOW.getTime() - 399 * DAY) },
      ]);
    };
    // Notes: closed just past / just within the notes' policy (both well within the cases' policy).
    await closedCase("notesPast", past("case_notes"), "Person said their name is Maria");
    await closedCase("notesWithin", within("case_notes"), "Person said their name is João");
    // Cases: closed just past / within the cases' policy (no text, so the notes' count stays theirs); one open.
    await closedCase("casePast", past("cases"), null);
    await closedCase("caseWithin", within("cases"), null);
    await closedCase("open", null, "still working on it");

    const delivery = (deliveryId: string, state: "pending" | "processed", receivedAt: Date, processedAt: Date | null, body: string) =>
      db.insert(webhookDeliveries).values({ deliveryId, event: "verification.approved", body, state, receivedAt, processedAt });
    await delivery("body-past", "processed", past("webhook_bodies"), past("webhook_bodies"), JSON.stringify(FLAT));
    await delivery("body-past-envelope", "processed", past("webhook_bodies"), past("webhook_bodies"), JSON.stringify(ENVELOPE));
    await delivery("body-within", "processed", within("webhook_bodies"), within("webhook_bodies"), JSON.stringify(FLAT));
    await delivery("row-past", "processed", past("webhook_deliveries"), past("webhook_deliveries"), "{}");
    await delivery("row-within", "processed", within("webhook_deliveries"), within("webhook_deliveries"), "{}");
    await delivery("pending-old", "pending", new Date(NOW.getTime() - 900 * DAY), null, JSON.stringify(FLAT));

    ids.indexPast = id();
    ids.indexWithin = id();
    await db.insert(verificationIndex).values([
      { publicId: ids.indexPast, cpfHash: "h1", updatedAt: past("search_index") },
      { publicId: ids.indexWithin, cpfHash: "h2", updatedAt: within("search_index") },
      // Long unseen, but its case is open.
      { publicId: ids.open!, cpfHash: "h3", updatedAt: new Date(NOW.getTime() - 900 * DAY) },
    ]);

    const session = (sessionId: string, lastSeenAt: Date, revokedAt: Date | null) =>
      db.insert(staffSessions).values({ id: sessionId, userId, method: "password", createdAt: lastSeenAt, lastSeenAt, revokedAt });
    await session("s-revoked-past", past("staff_sessions"), past("staff_sessions"));
    await session("s-revoked-within", within("staff_sessions"), within("staff_sessions"));
    await session("s-idle-past", past("staff_sessions"), null);
    await session("s-idle-within", within("staff_sessions"), null);

    ids.rateKey = `k-${id()}`;
    await db.insert(rateLimits).values([
      { key: ids.rateKey, windowStart: new Date(0), count: 1, expiresAt: past("rate_limits") },
      { key: ids.rateKey, windowStart: new Date(1000), count: 1, expiresAt: within("rate_limits") },
    ]);

    await db.insert(notifications).values([
      { userId, kind: "mention", casePublicId: "n-past", readAt: past("notifications"), createdAt: past("notifications") },
      { userId, kind: "mention", casePublicId: "n-within", readAt: within("notifications"), createdAt: past("notifications") },
      { userId, kind: "mention", casePublicId: "n-unread", readAt: null, createdAt: new Date(NOW.getTime() - 900 * DAY) },
    ]);
    const outbox = (subject: string, sentAt: Date | null, createdAt: Date) =>
      db.insert(notificationOutbox).values({ channel: "email", recipient: "a@test.local", subject, body: "b", sentAt, createdAt });
    await outbox("sent-past", past("notification_outbox"), past("notification_outbox"));
    await outbox("sent-within", within("notification_outbox"), past("notification_outbox"));
    await outbox("unsent-past", null, past("notification_outbox"));
    await outbox("unsent-within", null, within("notification_outbox"));

    await db.insert(liveEvents).values([
      { topic: "live-past", at: past("live_events") },
      { topic: "live-within", at: within("live_events") },
    ]);
    await db.insert(authChallenges).values([
      { id: `c-past-${id()}`, purpose: "step_up", challenge: "x", expiresAt: past("auth_challenges") },
      { id: `c-within-${id()}`, purpose: "step_up", challenge: "y", expiresAt: within("auth_challenges") },
    ]);
    ids.cropPast = id();
    ids.cropWithin = id();
    await db.insert(documentCrops).values([
      { publicId: ids.cropPast, x: 0, y: 0, w: 1, h: 1, setAt: past("document_crops") },
      { publicId: ids.cropWithin, x: 0, y: 0, w: 1, h: 1, setAt: within("document_crops") },
      { publicId: ids.open!, x: 0, y: 0, w: 1, h: 1, setAt: new Date(NOW.getTime() - 900 * DAY) },
    ]);
    // Days in the display time zone: the cutoff's own day stays, the day before it goes.
    const dayOf = (instant: number) => new Intl.DateTimeFormat("en-CA", { timeZone: config().displayTimeZone }).format(new Date(instant));
    await db.insert(upstreamCalls).values([
      { day: dayOf(cutoff("upstream_calls") - DAY), source: "job:test", kind: "core.list_verifications", count: 3 },
      { day: dayOf(cutoff("upstream_calls")), source: "job:test", kind: "core.list_verifications", count: 2 },
    ]);
    // Titular requests: closed past the policy (removed), closed within it, and open for long (kept: never pruned).
    const request = (label: string, closedAt: Date | null) => ({
      cpfHashes: [label.padEnd(64, "0")],
      documentMasked: "***.982.247-**",
      kind: "access",
      channel: "email",
      receivedAt: new Date(NOW.getTime() - 900 * DAY),
      dueAt: new Date(NOW.getTime() - 885 * DAY),
      openedBy: userId,
      state: closedAt ? ("closed" as const) : ("open" as const),
      closedAt,
      closedBy: closedAt ? userId : null,
      sent: closedAt ? ("written" as const) : null,
    });
    const requestRows = await db
      .insert(privacyRequests)
      .values([request("a", past("privacy_requests")), request("b", within("privacy_requests")), request("c", null)])
      .returning({ id: privacyRequests.id });
    ids.requestPast = requestRows[0]!.id;
    ids.requestWithin = requestRows[1]!.id;
    ids.requestOpen = requestRows[2]!.id;
    // Suspicious-activity reports: filed past five years (removed), filed within them, and a draft opened long ago
    // (kept: a draft is never removed).
    const report = (label: string, filedAt: Date | null) => ({
      casePublicId: `coaf-${label}`,
      connectionId: "primary",
      summarySealed: "v1.test.sealed",
      grounds: ["other"],
      openedBy: userId,
      openedAt: new Date(NOW.getTime() - 3000 * DAY),
      status: filedAt ? ("filed" as const) : ("draft" as const),
      protocol: filedAt ? `P-${label}` : null,
      filedAt,
    });
    const reportRows = await db
      .insert(suspiciousActivityReports)
      .values([report("a", past("suspicious_activity_reports")), report("b", within("suspicious_activity_reports")), report("c", null)])
      .returning({ id: suspiciousActivityReports.id });
    ids.reportWithin = reportRows[1]!.id;
    ids.reportDraft = reportRows[2]!.id;
    return { ids, userId };
  }

  it("removes exactly what is past each policy and nothing younger, shortens webhook bodies, audits the counts", async () => {
    const { ids } = await seed(handle.db);
    const audited: Date[] = [];
    const pruneAudit: AuditPruner = async (_db, { before }) => {
      audited.push(before);
      return 4;
    };
    const report = await runRetention(handle.db, { holder: "test", now: NOW, policies: policies(), pruneAudit });
    expect(report).toEqual({
      ran: true,
      at: NOW,
      failed: [],
      counts: {
        audit_events: 4,
        case_notes: 2,
        cases: 1,
        webhook_bodies: 2,
        webhook_deliveries: 1,
        search_index: 1,
        staff_sessions: 2,
        rate_limits: 1,
        notifications: 1,
        notification_outbox: 2,
        live_events: 1,
        auth_challenges: 1,
        document_crops: 1,
        upstream_calls: 1,
        privacy_requests: 1,
        suspicious_activity_reports: 1,
      },
    });
    expect(audited).toEqual([new Date(cutoff("audit_events"))]);

    const db = handle.db;
    const caseRows = await db
      .select()
      .from(cases)
      .where(inArray(cases.publicId, Object.values(ids)));
    const byPublicId = new Map(caseRows.map((row) => [row.publicId, row]));
    expect(byPublicId.has(ids.casePast!)).toBe(false);
    expect([ids.caseWithin, ids.notesPast, ids.notesWithin, ids.open].every((publicId) => byPublicId.has(publicId!))).toBe(true);
    expect(byPublicId.get(ids.notesPast!)?.outcomeComment).toBeNull();
    expect(byPublicId.get(ids.notesWithin!)?.outcomeComment).toContain("João");
    expect(byPublicId.get(ids.open!)?.outcomeComment).toBe("still working on it");
    const notes = async (publicId: string) =>
      db
        .select({ text: caseEntries.text, details: caseEntries.details })
        .from(caseEntries)
        .where(eq(caseEntries.caseId, byPublicId.get(publicId)!.id))
        .orderBy(asc(caseEntries.id));
    expect((await notes(ids.notesPast!))[1]).toEqual({ text: null, details: { text_removed: "retention" } });
    expect((await notes(ids.notesWithin!))[1]?.text).toContain("João");
    expect((await notes(ids.open!))[1]?.text).toBe("still working on it");

    const deliveries = new Map((await db.select().from(webhookDeliveries)).map((row) => [row.deliveryId, row]));
    expect([...deliveries.keys()].sort()).toEqual(["body-past", "body-past-envelope", "body-within", "pending-old", "row-within"]);
    expect(JSON.parse(deliveries.get("body-past")!.body)).toEqual({
      event: FLAT.event,
      verification_id: FLAT.verification_id,
      status: "approved",
      ref_id: "client-42",
      occurred_at: FLAT.occurred_at,
      identity_score: FLAT.identity_score,
      fraud_score: FLAT.fraud_score,
    });
    expect(parseDelivery(deliveries.get("body-past-envelope")!.body)).toEqual(parseDelivery(JSON.stringify(ENVELOPE)));
    expect(deliveries.get("body-within")!.body).toBe(JSON.stringify(FLAT));
    expect(deliveries.get("pending-old")!.body).toBe(JSON.stringify(FLAT));

    const index = (await db.select({ publicId: verificationIndex.publicId }).from(verificationIndex)).map((row) => row.publicId);
    expect(index.sort()).toEqual([ids.indexWithin, ids.open].sort());
    const sessions = (await db.select({ id: staffSessions.id }).from(staffSessions)).map((row) => row.id);
    expect(sessions.sort()).toEqual(["s-idle-within", "s-revoked-within"]);
    const rates = await db.select().from(rateLimits).where(eq(rateLimits.key, ids.rateKey!));
    expect(rates.map((row) => row.expiresAt)).toEqual([within("rate_limits")]);
    const bell = (await db.select({ c: notifications.casePublicId }).from(notifications)).map((row) => row.c);
    expect(bell.sort()).toEqual(["n-unread", "n-within"]);
    const out = (await db.select({ s: notificationOutbox.subject }).from(notificationOutbox)).map((row) => row.s);
    expect(out.sort()).toEqual(["sent-within", "unsent-within"]);
    const live = (await db.select({ t: liveEvents.topic }).from(liveEvents)).map((row) => row.t);
    expect(live).toContain("live-within");
    expect(live).not.toContain("live-past");
    const challenges = (await db.select({ id: authChallenges.id }).from(authChallenges)).map((row) => row.id);
    expect(challenges).toHaveLength(1);
    expect(challenges[0]).toMatch(/^c-within-/);
    const crops = (await db.select({ p: documentCrops.publicId }).from(documentCrops)).map((row) => row.p);
    expect(crops.sort()).toEqual([ids.cropWithin, ids.open].sort());
    const counted = await db.select({ count: upstreamCalls.count }).from(upstreamCalls).where(eq(upstreamCalls.source, "job:test"));
    expect(counted).toEqual([{ count: 2 }]);
    const requests = (await db.select({ id: privacyRequests.id }).from(privacyRequests)).map((row) => row.id);
    expect(requests.sort()).toEqual([ids.requestWithin, ids.requestOpen].sort());
    const reports = (await db.select({ id: suspiciousActivityReports.id }).from(suspiciousActivityReports)).map((row) => row.id);
    expect(reports.sort()).toEqual([ids.reportWithin, ids.reportDraft].sort());

    // The run is on the trail, and the report reads it back.
    const [event] = await db.select().from(auditEvents).where(eq(auditEvents.action, "retention.prune"));
    expect(event).toMatchObject({ actorId: null, outcome: "success" });
    expect(event?.details).toMatchObject({ cases: 1, webhook_bodies: 2, suspicious_activity_reports: 1 });
    expect(event?.details).not.toHaveProperty("failed");
    const read = await retentionReport(db);
    expect(read.lastRun).toEqual({ at: NOW.toISOString(), counts: report.ran ? report.counts : {} });
    expect(read.policies.find((policy) => policy.kind === "webhook_bodies")).toEqual({
      kind: "webhook_bodies",
      days: 30,
      reason: expect.stringContaining("LGPD"),
    });

    // Nothing is left past a policy: a second run removes nothing.
    const again = await runRetention(db, { holder: "test", now: NOW, policies: policies(), pruneAudit: async () => 0 });
    expect(again.ran && Object.values(again.counts).every((count) => count === 0)).toBe(true);
  });

  it("removes old audit events through the audit trail's own pruner, which leaves the younger ones", async () => {
    const own = await open();
    try {
      const at = (days: number) => new Date(NOW.getTime() - days * DAY);
      for (const days of [500, 450, 401]) await recordEvent({ actor: null, action: "test.old", outcome: "success", at: at(days) }, own.db);
      for (const days of [399, 10]) await recordEvent({ actor: null, action: "test.young", outcome: "success", at: at(days) }, own.db);
      const report = await runRetention(own.db, { holder: "test", now: NOW, policies: policies() });
      expect(report).toMatchObject({ ran: true, failed: [], counts: { audit_events: 3 } });
      const left = (await own.db.select({ action: auditEvents.action }).from(auditEvents)).map((row) => row.action);
      expect(left.filter((action) => action.startsWith("test."))).toEqual(["test.young", "test.young"]);
      expect(left).toContain("retention.prune");
    } finally {
      await own.dispose();
    }
  });

  it("runs once across two instances sharing the database (the lease), and not again within the interval", async () => {
    const other = handle.url ? await createDatabase({ url: handle.url }) : null;
    try {
      const second = other?.db ?? handle.db;
      let calls = 0;
      const slowAudit: AuditPruner = async () => {
        calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 300));
        return 0;
      };
      const later = new Date(NOW.getTime() + DAY);
      const run = (db: Database, holder: string) =>
        runRetention(db, { holder, now: later, minGapMs: 3_600_000, policies: policies(), pruneAudit: slowAudit });
      const [a, b] = await Promise.all([run(handle.db, "instance-a"), run(second, "instance-b")]);
      expect([a.ran, b.ran].filter(Boolean)).toHaveLength(1);
      expect(calls).toBe(1);
      // The interval has not passed: neither instance runs it again.
      const [c, d] = await Promise.all([run(handle.db, "instance-a"), run(second, "instance-b")]);
      expect([c.ran, d.ran]).toEqual([false, false]);
      expect(calls).toBe(1);
    } finally {
      await other?.close();
    }
  });
});
