import "server-only";

import { sql } from "drizzle-orm";

import { getDb } from "./client";

/**
 * The database's readiness probe (GET /api/health?ready): opens the process database if it is not yet open and
 * runs `select 1`, refused with a TimeoutError after `timeoutMs` so a probe answers quickly.
 */
export async function pingDatabase(timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { name: "TimeoutError" })), timeoutMs);
  });
  try {
    await Promise.race([(async () => (await getDb()).execute(sql`select 1`))(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
