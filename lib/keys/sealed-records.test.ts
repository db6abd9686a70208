import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

import { queryRows } from "@/lib/db/client";
import { describeEachDatabase, stubTestEnvironment, withDatabase } from "@/test/db";

import { SEALED_RECORD_TEXTS } from "./sealed-records";

/*
 * A data key may leave the ring once the re-seal job says nothing is left under it (docs/operations.md, "Rotating the
 * data key"). That holds only if the job knows every sealed column: so every `*_sealed` column of the migrated schema
 * is either one the job moves by lib/keys/sealed-records.ts, or named here with what moves it instead. A new sealed
 * column fails this test until it is one or the other.
 */

const MOVED_ELSEWHERE: Record<string, string> = {
  // Re-sealed under the ring's current key by each instance on its first read after a restart (lib/connections/server/store.ts).
  "connections.core_key_sealed": "lib/connections/server/store.ts",
  "connections.partners_sealed": "lib/connections/server/store.ts",
};

beforeAll(() => stubTestEnvironment());
afterAll(() => vi.unstubAllEnvs());

describeEachDatabase("sealed columns of the schema on $name", ({ open }) => {
  const handle = withDatabase(open);

  it("are each moved by the re-seal job or named with what moves them", async () => {
    const columns = await queryRows<{ name: string }>(
      handle.db,
      sql`select table_name || '.' || column_name as name from information_schema.columns
          where table_schema = 'public' and column_name like '%\\_sealed' order by 1`,
    );
    const known = [...Object.values(SEALED_RECORD_TEXTS).map((spec) => `${spec.table}.${spec.column}`), ...Object.keys(MOVED_ELSEWHERE)];
    expect(columns.map((column) => column.name)).toEqual([...known].sort());
  });
});
