import { expect, it } from "vitest";

import { describeEachDatabase, withDatabase } from "@/test/db";

import { deliveryHealth } from "./health";
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
