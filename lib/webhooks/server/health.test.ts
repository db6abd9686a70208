import { expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { describeEachDatabase, withDatabase } from "@/test/db";

import { deliveriesFailing, deliveryHealth } from "./health";
import { verificationEvents, webhookDeliveries } from "./tables";

/*
 * Delivery health (issue 35, item 5): a connection's admins see the deliveries routed to their connection and those
 * routed to none yet, never another connection's; failing when a delivery was given up, could not be read, or waits
 * past 15 minutes; counts over the last day, the latest deliveries whatever their age.
 */

const NOW = new Date("2026-11-30T12:00:00Z");
const minutesAgo = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);

describeEachDatabase("delivery health on $name", (kind) => {
  const handle = withDatabase(kind.open);

  it("counts the connection's deliveries and the unrouted ones by state, says what is failing, and lists the latest", async () => {
    const db = handle.db;
    const delivery = (deliveryId: string, state: (typeof webhookDeliveries.$inferInsert)["state"], minutes: number) => ({
      deliveryId,
      event: "verification.status_changed",
      body: "{}",
      state,
      attempts: state === "failed" ? 6 : 1,
      receivedAt: minutesAgo(minutes),
    });
    await db
      .insert(webhookDeliveries)
      .values([
        delivery("d-primary", "processed", 5),
        delivery("d-production", "processed", 4),
        delivery("d-failed", "failed", 30),
        delivery("d-unreadable", "unparseable", 20),
        delivery("d-stuck", "pending", 16),
        delivery("d-fresh", "pending", 1),
        delivery("d-yesterday", "failed", 25 * 60),
      ]);
    const event = (deliveryId: string, connectionId: string) => ({
      eventKey: `key-${deliveryId}`,
      publicId: `ver-${deliveryId}`,
      event: "verification.status_changed",
      occurredAt: minutesAgo(5),
      connectionId,
      deliveryId,
    });
    await db.insert(verificationEvents).values([event("d-primary", "primary"), event("d-production", "production")]);

    const primary = await deliveryHealth(db, "primary", NOW);
    expect(primary.counts).toEqual({ processed: 1, ignored: 0, pending: 2, failed: 1, unparseable: 1 });
    expect(primary.stuck).toBe(1);
    expect(primary.failing).toEqual(["failed", "unparseable", "stuck"]);
    expect(primary.lastReceivedAt).toBe(minutesAgo(1).toISOString());
    // Another connection's delivery is not listed; yesterday's is, but not counted.
    expect(primary.recent.map((row) => [row.state, row.connectionId])).toEqual([
      ["pending", null],
      ["processed", "primary"],
      ["pending", null],
      ["unparseable", null],
      ["failed", null],
      ["failed", null],
    ]);

    const production = await deliveryHealth(db, "production", NOW);
    expect(production.counts.processed).toBe(1);
    expect(production.recent.filter((row) => row.connectionId !== null).map((row) => row.connectionId)).toEqual(["production"]);
  });
});

describeEachDatabase("delivery health, all well, on $name", (kind) => {
  const handle = withDatabase(kind.open);

  it("is not failing when every delivery of the day was processed in time", async () => {
    await handle.db.insert(webhookDeliveries).values({
      deliveryId: "d-well",
      event: "verification.status_changed",
      body: "{}",
      state: "processed",
      attempts: 1,
      receivedAt: minutesAgo(30),
    });
    await handle.db.insert(verificationEvents).values({
      eventKey: "key-d-well",
      publicId: "ver-d-well",
      event: "verification.status_changed",
      occurredAt: minutesAgo(30),
      connectionId: "other-integration",
      deliveryId: "d-well",
    });
    const health = await deliveryHealth(handle.db, "other-integration", NOW);
    expect(health.failing).toEqual([]);
    expect(health.counts).toEqual({ processed: 1, ignored: 0, pending: 0, failed: 0, unparseable: 0 });
    expect(health.recent.map((row) => row.connectionId)).toEqual(["other-integration"]);
  });
});

describeEachDatabase("the shell's failing check on $name", (kind) => {
  const handle = withDatabase(kind.open);

  // One delivery each, alone in the table: the check must say what the health's reasons say, for this connection only.
  const cases: [string, (typeof webhookDeliveries.$inferInsert)["state"], number, string | null, boolean][] = [
    ["given up within the day", "failed", 30, null, true],
    ["given up yesterday", "failed", 25 * 60, null, false],
    ["unreadable", "unparseable", 10, null, true],
    ["waiting past 15 minutes", "pending", 16, null, true],
    ["waiting a minute", "pending", 1, null, false],
    ["processed", "processed", 5, "primary", false],
    ["given up, routed to another connection", "failed", 30, "production", false],
  ];
  for (const [name, state, minutes, routedTo, failing] of cases) {
    it(`${name}: ${failing ? "failing" : "not failing"}, as the health says`, async () => {
      const db = handle.db;
      await db.delete(verificationEvents);
      await db.delete(webhookDeliveries);
      const deliveryId = `d-${state}-${minutes}`;
      await db
        .insert(webhookDeliveries)
        .values({ deliveryId, event: "verification.updated", body: "{}", state, attempts: 1, receivedAt: minutesAgo(minutes) });
      if (routedTo) {
        const event = {
          eventKey: `key-${deliveryId}`,
          publicId: `ver-${deliveryId}`,
          event: "verification.updated",
          occurredAt: minutesAgo(minutes),
        };
        await db.insert(verificationEvents).values({ ...event, connectionId: routedTo, deliveryId });
      }
      expect(await deliveriesFailing(db, "primary", NOW)).toBe(failing);
      expect((await deliveryHealth(db, "primary", NOW)).failing.length > 0).toBe(failing);
    });
  }
});

describeEachDatabase("deliveries that stopped, on $name", (kind) => {
  const handle = withDatabase(kind.open);

  const created = (minutes: number, connectionId: string) => ({
    at: minutesAgo(minutes),
    action: "verification.create",
    outcome: "success" as const,
    connectionId,
    prevHash: "0".repeat(64),
    hash: `${minutes}-${connectionId}`.padEnd(64, "0"),
  });

  it("says so when a verification created here over 15 minutes ago brought no delivery since the last one", async () => {
    const db = handle.db;
    await db.insert(auditEvents).values([created(40, "primary"), created(5, "primary"), created(50, "production")]);
    // The last delivery came before the 40-minute-old creation.
    await db.insert(webhookDeliveries).values({
      deliveryId: "d-old",
      event: "verification.updated",
      body: "{}",
      state: "processed",
      attempts: 1,
      receivedAt: minutesAgo(60),
    });
    const health = await deliveryHealth(db, "primary", NOW);
    expect(health.unannounced).toBe(1);
    expect(health.failing).toEqual(["stopped"]);
    expect(await deliveriesFailing(db, "primary", NOW)).toBe(true);

    // A delivery since then: the pipe works (the 5-minute-old creation's delivery is not due yet).
    await db.insert(webhookDeliveries).values({
      deliveryId: "d-new",
      event: "verification.created",
      body: "{}",
      state: "processed",
      attempts: 1,
      receivedAt: minutesAgo(30),
    });
    expect((await deliveryHealth(db, "primary", NOW)).failing).toEqual([]);
    expect(await deliveriesFailing(db, "primary", NOW)).toBe(false);
  });
});
