import { eq, sql } from "drizzle-orm";
import { afterEach, expect, it, vi } from "vitest";

import { metrics } from "@/lib/metrics/registry";
import { stopJobs } from "@/lib/runtime/scheduler";
import { webhookDeliveries } from "@/lib/webhooks/server/tables";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";
import { flatEvent, uniqueId } from "@/test/webhooks";

import { onVerificationChange } from "./changes";
import { parseDelivery } from "./parse";
import { startWebhookSweeper, webhookDueInMs } from "./processor";
import { storeDelivery } from "./store";

/*
 * The webhook sweep is a job of the scheduler (lib/runtime/scheduler.ts): it wakes when the next pending delivery is
 * due (a failed one's retry), not only every WEBHOOK_SWEEP_SECONDS, and is counted and stopped with the other jobs.
 * The sweep here is hourly, so a delivery processed within seconds was met by a wake at its due time. Real time:
 * the claim compares a delivery's due time with the database's clock, which a test cannot drive.
 */

withTestEnvironment({ WEBHOOK_SWEEP_SECONDS: "3600" }, { quiet: true });

describeEachDatabase("the webhook sweep on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  afterEach(async () => {
    await stopJobs();
  });

  const sweeps = async (outcome: string) =>
    (await metrics().jobRuns.get()).values.find((value) => value.labels.job === "webhooks.sweep" && value.labels.outcome === outcome)
      ?.value ?? 0;

  it("processes a delivery when its retry is due rather than at the next hourly sweep, counted as the sweep's run", async () => {
    const publicId = uniqueId("ver");
    const seen: string[] = [];
    const unregister = onVerificationChange(async (_db, change) => {
      if (change.publicId === publicId) seen.push(change.deliveryId);
    });
    try {
      const body = JSON.stringify(flatEvent(publicId));
      const parsed = parseDelivery(body);
      if (parsed.kind === "malformed") throw new Error(parsed.problem);
      const deliveryId = uniqueId("dlv");
      await storeDelivery(handle.db, { deliveryId, rawBody: body, parsed, ip: null });
      // As a failed attempt leaves it: pending, its retry due shortly (on the database's clock).
      await handle.db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: sql`now() + interval '1500 milliseconds'` })
        .where(eq(webhookDeliveries.deliveryId, deliveryId));
      const due = await webhookDueInMs(handle.db);
      expect(due).toBeGreaterThan(0);
      expect(due).toBeLessThanOrEqual(1_500);
      const ran = await sweeps("ran");

      startWebhookSweeper();
      await vi.waitFor(
        async () => {
          const [row] = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.deliveryId, deliveryId));
          expect(row).toMatchObject({ state: "processed", attempts: 1 });
        },
        { timeout: 15_000, interval: 100 },
      );
      expect(seen).toEqual([deliveryId]);
      await vi.waitFor(async () => expect(await sweeps("ran")).toBe(ran + 1));
      // Nothing pending: the sweep sleeps its whole interval.
      expect(await webhookDueInMs(handle.db)).toBeUndefined();
    } finally {
      unregister();
    }
  });
});
