import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { createDatabase } from "@/lib/db/client";
import { knownVerificationsOf } from "@/lib/verifications/known";
import { caseColumnsOf } from "@/lib/verifications/enrich";
import { randomUUID } from "node:crypto";
const h = await createDatabase({ pglite: new PGlite() });
const db = h.db;
const ids = Array.from({ length: 20 }, () => randomUUID());
async function time(label: string, n: number, f: () => Promise<unknown>) {
  for (let i = 0; i < 50; i++) await f();
  const c0 = process.cpuUsage(); const t0 = performance.now();
  for (let i = 0; i < n; i++) await f();
  const dt = performance.now() - t0; const c = process.cpuUsage(c0);
  console.log(label.padEnd(40), (dt / n).toFixed(3), "ms wall", ((c.user + c.system) / 1000 / n).toFixed(3), "ms cpu");
}
await time("select 1 (raw pglite)", 2000, () => (h as any).pglite?.query?.("select 1") ?? db.execute(sql`select 1`));
await time("select 1 (drizzle execute)", 2000, () => db.execute(sql`select 1`));
await time("knownVerificationsOf 20", 2000, () => knownVerificationsOf(db, ids));
await time("caseColumnsOf 20", 2000, () => caseColumnsOf(db, ids));
await time("both parallel", 2000, () => Promise.all([knownVerificationsOf(db, ids), caseColumnsOf(db, ids)]));
await time("empty transaction", 1000, () => db.transaction(async (tx) => { await tx.execute(sql`select 1`); }));
process.exit(0);
