import "server-only";

import { createHash, timingSafeEqual } from "node:crypto";

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

import { droppedLogLines } from "@/lib/log";

/*
 * The dashboard's metrics in Prometheus's text format (GET /api/metrics, off unless METRICS_TOKEN is set), from
 * prom-client, the Node client Prometheus lists: its histograms, the process's own figures (event-loop lag, memory,
 * CPU, handles) and the exposition format are kept up to date there, not here.
 *
 * One registry per process, on globalThis: Next evaluates instrumentation.ts and each route's bundle separately,
 * and every one of them must count into the same families.
 *
 * Labels are bounded, always: a route as its file names it (`/api/cases/[publicId]`), an upstream operation's name,
 * a status code, a job's name, a kind from a fixed list. Never a path as requested, an id, a CPF, an email or an
 * address (app/api/metrics/route.test.ts scrapes after a session and checks every label).
 */

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "kyc_" });
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  return {
    registry,
    httpRequests: new Histogram({
      name: "kyc_http_request_duration_seconds",
      help: "API requests by route template, method and status, with their duration.",
      labelNames: ["route", "method", "status"] as const,
      buckets: seconds,
      registers: [registry],
    }),
    httpInFlight: new Gauge({
      name: "kyc_http_requests_in_flight",
      help: "API requests being answered now.",
      registers: [registry],
    }),
    upstreamCalls: new Histogram({
      name: "kyc_upstream_call_duration_seconds",
      help: "Calls to the service's APIs (each attempt) by upstream, operation, status class and outcome.",
      labelNames: ["upstream", "operation", "status", "outcome"] as const,
      buckets: seconds,
      registers: [registry],
    }),
    databaseTime: new Histogram({
      name: "kyc_db_query_duration_seconds",
      help: "Database statements by driver, with their duration.",
      labelNames: ["driver"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers: [registry],
    }),
    auditCommits: new Histogram({
      name: "kyc_audit_batch_commit_seconds",
      help: "Audit trail batches: the time to chain and commit one, by outcome.",
      labelNames: ["outcome"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    }),
    auditBatchEvents: new Counter({
      name: "kyc_audit_events_committed_total",
      help: "Audit events committed to the trail.",
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: "kyc_job_runs_total",
      help: "Background job looks by job and outcome: ran (did work), idle (not due, or another instance had it), failed.",
      labelNames: ["job", "outcome"] as const,
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: "kyc_job_duration_seconds",
      help: "Background job runs that did work, by job.",
      labelNames: ["job"] as const,
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
      registers: [registry],
    }),
    caseEscalations: new Counter({
      name: "kyc_case_escalations_total",
      help: "Cases escalated by the SLA job: past their due time with no recommendation.",
      registers: [registry],
    }),
    quotaRefusals: new Counter({
      name: "kyc_quota_refusals_total",
      help: "Requests refused by a quota, by kind.",
      labelNames: ["kind"] as const,
      registers: [registry],
    }),
    signInFailures: new Counter({
      name: "kyc_sign_in_failures_total",
      help: "Failed sign-ins by reason.",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
    signInLocks: new Counter({
      name: "kyc_sign_in_locks_total",
      help: "Sign-ins refused because the account or the address was locked out.",
      labelNames: ["scope"] as const,
      registers: [registry],
    }),
    logLinesDropped: new Counter({
      name: "kyc_log_lines_dropped_total",
      help: "Log lines dropped because the process's output had lost its reader (a closed pipe), by stream.",
      labelNames: ["stream"] as const,
      registers: [registry],
      // Counted where the lines are written (lib/log.ts sits below this layer), read at each scrape.
      collect() {
        this.reset();
        for (const [stream, lines] of Object.entries(droppedLogLines())) this.inc({ stream }, lines);
      },
    }),
    liveStreams: new Gauge({
      name: "kyc_live_streams_open",
      help: "Live event streams open on this instance.",
      registers: [registry],
    }),
    outboxDepth: new Gauge({
      name: "kyc_notification_outbox_depth",
      help: "Notification messages waiting to be sent (retries included, given-up ones not), across instances.",
      registers: [registry],
    }),
    outboxOldestAge: new Gauge({
      name: "kyc_notification_outbox_oldest_age_seconds",
      help: "How long the oldest message still to send has waited.",
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const slot = globalThis as typeof globalThis & { __kycMetrics?: Metrics };

/** The process's metrics (created on first use). */
export function metrics(): Metrics {
  return (slot.__kycMetrics ??= createMetrics());
}

/** Seconds since `started` (a performance.now() reading), for a histogram. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}

/**
 * Whether the request carries the metrics token (`Authorization: Bearer <METRICS_TOKEN>`), compared in constant
 * time. False when no token is configured.
 */
export function holdsMetricsToken(request: Request, token: string | undefined): boolean {
  if (!token) return false;
  const given = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(token).digest();
  return timingSafeEqual(a, b);
}
