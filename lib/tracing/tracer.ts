import "server-only";

import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";

/*
 * Traces: the spans the dashboard makes, through OpenTelemetry's API only (a no-op costing nothing until
 * ./exporter.ts, started by instrumentation.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set, registers the SDK: the SDK is
 * never loaded by a route's bundle). A span per API
 * request (the route kit), with a child per upstream attempt (lib/upstream/http.ts) and per database statement
 * (lib/db/timing.ts); Next's own spans for pages and requests join the same traces. The trace id is in every log
 * line (lib/log.ts) and in each API answer's `traceparent`.
 *
 * No personal data, token or key in a span: our spans carry only bounded names (a route's template, an operation,
 * a status, a driver), and every span leaving the process goes through ./exporter.ts's filter, which keeps only the
 * attributes it lists (Next's spans also carry the path as requested, with its ids and its query), renames a
 * span named after a path that is not a route's template, and drops events' attributes (an exception's message can
 * hold anything). app/api/traces.test.ts sends a session's spans to a receiver of its own and reads them.
 */

const TRACER = "kyc-backoffice";

/**
 * Runs `work` in a span named `name` (a bounded name: a template, an operation), the span ended when the work ends,
 * failed when it throws. A no-op span when tracing is off.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>, kind = SpanKind.INTERNAL): Promise<T> {
  return trace.getTracer(TRACER).startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute("error.type", error instanceof Error ? error.name : "Error");
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A span for work that starts none of its own (a database statement); the caller ends it. */
export function childSpan(name: string, attributes: Attributes): Span {
  return trace.getTracer(TRACER).startSpan(name, { kind: SpanKind.CLIENT, attributes });
}

/** The W3C `traceparent` of the active span, or undefined when there is none (tracing off). */
export function activeTraceparent(): string | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return undefined;
  return `00-${context.traceId}-${context.spanId}-0${context.traceFlags.toString(16)}`;
}

export { SpanKind };
