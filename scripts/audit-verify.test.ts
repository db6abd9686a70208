import fs from "node:fs";
import path from "node:path";

import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { tamper } from "@/test/audit-trail";
import { restoreConfigEnv } from "@/test/config";
import { describeEachDatabase, stubTestEnvironment } from "@/test/db";
import { freshTarget, npmRun, removeTemplates, tempFolder, type Target } from "@/test/scripts";

/*
 * `npm run audit:verify` as an operator runs it, on the trail's end: it exits 1 naming the ids cut off the end, and,
 * once the database is rewound past every check inside it (events, checkpoints and the count of events cut back, as
 * a role that owns the tables can), naming the head it kept outside the database (AUDIT_HEAD_FILE).
 */

const SLOW = 240_000;

beforeAll(() => stubTestEnvironment());
afterAll(async () => {
  restoreConfigEnv();
  await removeTemplates();
});

async function withDatabase(target: Target, work: (db: Awaited<ReturnType<Target["open"]>>["db"]) => Promise<void>): Promise<void> {
  const handle = await target.open();
  try {
    await work(handle.db);
  } finally {
    await handle.close();
  }
}

describeEachDatabase("audit:verify and the trail's end on $name", ({ name }) => {
  it(
    "exits 1 naming the ids cut off the end, and a rewound database against the head kept outside it",
    async () => {
      const target = await freshTarget(name, { migrated: true });
      const file = path.join(tempFolder(), "audit-head.json");
      const env = { ...target.env, AUDIT_HEAD_FILE: file };
      const ids: number[] = [];
      await withDatabase(target, async (db) => {
        for (let index = 0; index < 6; index += 1)
          ids.push((await recordEvent({ actor: null, action: "search.cpf", outcome: "success" }, db)).id);
      });

      const intact = await npmRun("audit:verify", [], env);
      expect(intact.code).toBe(0);
      expect(intact.stdout).toContain(`no head kept in ${file} yet`);
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ throughEventId: ids[5] });

      // Events after the signed head, then cut off: only the count of events appended names them.
      await withDatabase(target, async (db) => {
        for (let index = 0; index < 3; index += 1)
          ids.push((await recordEvent({ actor: null, action: "search.cpf", outcome: "success" }, db)).id);
        await tamper(db, sql`delete from audit_events where id > ${ids[5]!}`);
      });
      const cut = await npmRun("audit:verify", [], env);
      expect(cut.code).toBe(1);
      expect(cut.stderr).toContain(`events #${ids[6]} to #${ids[8]} are missing at the end`);

      await withDatabase(target, (db) =>
        tamper(
          db,
          sql`delete from audit_events where id > ${ids[2]!}`,
          sql`delete from audit_checkpoints`,
          sql`update audit_chain_head set last_event_id = ${ids[2]!}`,
        ),
      );
      const rewound = await npmRun("audit:verify", [], env);
      expect(rewound.code).toBe(1);
      expect(rewound.stderr).toContain(`event #${ids[5]}, the head kept outside the database, is gone`);
      expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ throughEventId: ids[5] });
    },
    SLOW,
  );
});
