import "server-only";

import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";

import { metrics } from "@/lib/metrics/registry";
import { childSpan } from "@/lib/tracing/tracer";

/*
 * Database time in the metrics (`kyc_db_query_duration_seconds{driver}`): every statement's round trip, inside a
 * transaction or not, observed where the driver is called. Drizzle has no hook after a statement, so the clients'
 * `query` is wrapped: the pool's and each pooled client's for PostgreSQL (a transaction runs on a checked-out
 * client), the instance's and each transaction's for PGlite. Statement texts and values are never labels. The same
 * wrapper makes each statement a span of the request's trace when tracing is on.
 */

type Queryable = { query: (...args: never[]) => unknown };

const TIMED = Symbol("kyc.timed");

function timeQueries(target: Queryable, driver: "pglite" | "postgres"): void {
  const marked = target as Queryable & { [TIMED]?: true };
  if (marked[TIMED]) return;
  marked[TIMED] = true;
  const original = target.query.bind(target) as (...args: unknown[]) => unknown;
  (target as { query: unknown }).query = (...args: unknown[]) => {
    const started = performance.now();
    // A span per statement (lib/tracing/tracer.ts): the driver only, never the statement's text or values.
    const span = childSpan("db.query", { "db.system": driver === "pglite" ? "pglite" : "postgresql" });
    const result = original(...args);
    // Promise-style calls only (what Drizzle makes); a callback or a submittable is passed through untimed.
    if (result instanceof Promise) {
      return result.finally(() => {
        span.end();
        metrics().databaseTime.observe({ driver }, (performance.now() - started) / 1000);
      });
    }
    span.end();
    return result;
  };
}

/** Times the pool's statements and those of every client it lends (transactions). */
export function timePool(pool: pg.Pool): void {
  timeQueries(pool as unknown as Queryable, "postgres");
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  (pool as { connect: unknown }).connect = (...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      timeQueries(client as unknown as Queryable, "postgres");
      return client;
    });
  };
}

/** Times the embedded database's statements, and those of each transaction. */
export function timePglite(client: PGlite): void {
  timeQueries(client as unknown as Queryable, "pglite");
  const transaction = client.transaction.bind(client);
  client.transaction = ((callback: Parameters<PGlite["transaction"]>[0]) =>
    transaction((tx) => {
      timeQueries(tx as unknown as Queryable, "pglite");
      return callback(tx);
    })) as PGlite["transaction"];
}
