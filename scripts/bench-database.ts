// What the benchmarks that also measure PostgreSQL share: a database of their own beside the one
// TEST_DATABASE_URL (or BENCH_DATABASE_URL) names, created for the run and dropped after it. Not a suite.
import { randomBytes } from "node:crypto";

import pg from "pg";

async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

/** A fresh, empty database on the server `adminUrl` points at; `drop()` removes it. */
export async function scratchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `kyc_bench_${process.pid}_${randomBytes(3).toString("hex")}`;
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`) };
}

/** Runs `body` against a fresh database, dropped afterwards whatever happens. */
export async function withScratchDatabase<T>(adminUrl: string, body: (url: string) => Promise<T>): Promise<T> {
  const scratch = await scratchDatabase(adminUrl);
  try {
    return await body(scratch.url);
  } finally {
    await scratch.drop();
  }
}
