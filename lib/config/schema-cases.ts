import "server-only";

import { z } from "zod";

import { positiveInt } from "@/lib/config/fields";

/** Case work, the search index's re-keying and four eyes. */
export const caseVariables = {
  // Case work (lib/cases): hours until an open case is due; red flags that open a case besides `review`
  // and raise its priority; the risk score above which a case is flagged; upstream statuses that close a
  // case (by default the decided ones, approved and reproved: the provider's status list,
  // docs/assumptions.md#case-final-statuses); minutes between scheduled syncs of the review list (0: only on
  // demand).
  CASE_SLA_HOURS: positiveInt.max(24 * 90).default(24),
  CASE_RED_FLAGS: z
    .string()
    .regex(/^((pep|restrictive_list|low_facematch|high_risk)(,|$))*$/, "must list pep, restrictive_list, low_facematch, high_risk")
    .default("pep,restrictive_list,low_facematch,high_risk"),
  // On the service's 0..100 score scale (lib/upstream/model/verification.ts); the default is the detail's "high risk" band.
  CASE_RISK_THRESHOLD: z.coerce.number().int().min(0).max(100).default(70),
  CASE_SYNC_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(15),
  // Re-keying the search index after an audit key rotation (lib/cases/server/rekey.ts, docs/operations.md#rotating-the-audit-key):
  // verifications read again from the service per run (each one a call on the provider key's quota; 0 turns the job
  // off), and minutes between runs (a lease makes one instance run it).
  SEARCH_REKEY_BATCH: z.coerce.number().int().min(0).max(5000).default(100),
  SEARCH_REKEY_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  // Hours between full passes of the review list (lib/cases/server/sync.ts); the runs between are incremental
  // (new verifications and the events since the last run). 0: every run is a full pass.
  CASE_SYNC_FULL_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 30)
    .default(24),
  // Seconds a sync run's lease lasts without renewal (renewed after each page of the review list): how long an
  // instance that dies mid-run keeps every other instance from syncing. Above the slowest page's answer.
  CASE_SYNC_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(300),
  // Four eyes between people who predate the request (docs/security.md#four-eyes): an erasure or a case outcome is
  // not confirmed by an account its requester created, re-enabled or gave its role after the request or within
  // this many hours before it. 0: only after the request.
  FOUR_EYES_INDEPENDENCE_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 365)
    .default(24),
  // Titular requests (LGPD art. 19 II; ANPD resolution 18/2024): days from receipt until a request is due.
  PRIVACY_REQUEST_DUE_DAYS: z.coerce.number().int().min(1).max(90).default(15),
  // Suspicious-activity reports (Lei 9.613/98 art. 11): calendar days from the case's decision (its opening while
  // undecided) until a report is shown overdue. 1 mirrors the sectoral rule of one business day, counted plainly.
  COAF_REPORT_DEADLINE_DAYS: z.coerce.number().int().min(1).max(90).default(1),
};
