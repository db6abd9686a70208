import "server-only";

import { z } from "zod";

import { httpUrl, positiveInt } from "@/lib/config/fields";

/** Running it: metrics for a scraper, and how long a stopping instance drains (docs/operations.md). */
export const operationsVariables = {
  // Prometheus metrics at GET /api/metrics for a scraper sending `Authorization: Bearer <METRICS_TOKEN>`. Unset: the
  // route answers 404 and nothing is exposed. A secret like the others: whoever holds it reads the counters.
  METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
  // On SIGTERM the instance fails readiness, then waits up to this long for its requests and jobs before it exits.
  SHUTDOWN_GRACE_SECONDS: positiveInt.max(600).default(25),
  // Traces to an OpenTelemetry collector over OTLP/HTTP (`/v1/traces` is appended), e.g. http://otel-collector:4318.
  // Unset: no span leaves the process (and none is made).
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  OTEL_SERVICE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be a short name")
    .default("kyc-backoffice"),
};
