import { desc } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { checkpointSignatureValid } from "@/lib/audit-trail/server/checkpoint";
import { pruneAuditEvents } from "@/lib/audit-trail/server/prune";
import { recordEvent } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { verifyAuditChain } from "@/lib/audit-trail/server/verify";
import { auditCheckpointsSchema } from "@/lib/audit-trail/types";
import { apiRequest, createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { GET } from "./route";

const DAY = 86_400_000;

withTestEnvironment({}, { quiet: true });

describeEachDatabase("GET /api/audit/checkpoints on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let adminCookie: string;
  let analystCookie: string;
  let analystId: string;

  beforeAll(async () => {
    // Old events first: the prune removes a prefix of the chain.
    for (const days of [40, 35, 1]) {
      await recordEvent({ actor: null, action: "auth.sign_in", outcome: "success", at: new Date(Date.now() - days * DAY) }, handle.db);
    }
    const admin = await createTestStaff(handle.db, { role: "admin" });
    const analyst = await createTestStaff(handle.db, { role: "analyst" });
    analystId = analyst.id;
    adminCookie = await sessionCookieFor(handle.db, admin);
    analystCookie = await sessionCookieFor(handle.db, analyst);
  });

  const get = (cookie: string) => GET(apiRequest("/api/audit/checkpoints", { cookie, headers: { "x-kyc-peer-address": "192.0.2.7" } }));
  const lastEvent = async () => (await handle.db.select().from(auditEvents).orderBy(desc(auditEvents.id)).limit(1))[0]!;

  it("refuses anonymous callers, and analysts while recording the attempt", async () => {
    expect((await get("")).status).toBe(401);
    expect((await get(analystCookie)).status).toBe(403);
    expect(await lastEvent()).toMatchObject({ action: "audit.export", outcome: "denied", actorId: analystId });
  });

  it("lists the signed checkpoints for an admin, each verifiable with the audit key, and records the export", async () => {
    expect(auditCheckpointsSchema.parse(await (await get(adminCookie)).json())).toEqual({ checkpoints: [] });
    expect(await pruneAuditEvents(handle.db, { before: new Date(Date.now() - 30 * DAY) })).toBe(2);

    const response = await get(adminCookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const { checkpoints } = auditCheckpointsSchema.parse(await response.json());
    expect(checkpoints.map((checkpoint) => [checkpoint.kind, checkpoint.removedCount])).toEqual([
      ["prune", 2],
      ["head", 0],
    ]);
    for (const checkpoint of checkpoints) {
      const dated = {
        ...checkpoint,
        createdAt: new Date(checkpoint.createdAt),
        throughEventAt: new Date(checkpoint.throughEventAt),
        cutoff: new Date(checkpoint.cutoff),
      };
      expect(checkpointSignatureValid(dated)).toBe(true);
    }
    expect(await lastEvent()).toMatchObject({ action: "audit.export", outcome: "success", details: { format: "checkpoints", rows: 2 } });
    expect((await verifyAuditChain(handle.db)).ok).toBe(true);
  });
});
