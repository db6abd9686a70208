import "server-only";

import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type ReadableSpan, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/*
 * Traces, with OpenTelemetry's Node SDK and its OTLP/HTTP exporter, when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (instrumentation.ts starts them; without it every span below is the API's no-op and costs nothing). A span per API
 * request (the route kit), with a child per upstream attempt (lib/upstream/http.ts) and per database statement
 * (lib/db/timing.ts); Next's own spans for pages and requests join the same traces. The trace id is in every log
 * line (lib/log.ts) and in each API answer's `traceparent`.
 *
 * No personal data, token or key in a span: our spans carry only bounded names (a route's template, an operation,
 * a status, a driver), and every span leaving the process goes through `WithheldAttributes`, which keeps only the
 * attributes named in KEPT (Next's spans also carry the path as requested, with its ids and its query), renames a
 * span named after a path that is not a route's template, and drops events' attributes (an exception's message can
 * hold anything). lib/tracing/tracer.test.ts sends a session's spans to a receiver of its own and reads them.
 */

const TRACER = "kyc-backoffice";

/** The attributes a span may leave the process with: methods, statuses, templates, our own bounded names. */
const KEPT =
  /^(http\.(request\.)?method|http\.(response\.)?status_code|http\.route|next\.(route|span_type|span_name|rsc)|kyc\.[a-z_.]+|db\.system(\.name)?|error\.type)$/;
/** A path as a route's file names it: lower-case words, `[segment]`s and `(group)`s. */
const TEMPLATE = /^(\/([a-z0-9._-]+|\[[A-Za-z.]+\]|\([a-z-]+\)))*\/?$/;

function withheldName(name: string): string {
  return name.replace(/\/\S*/g, (path) => (TEMPLATE.test(path) ? path : "/(path withheld)"));
}

class WithheldAttributes implements SpanProcessor {
  constructor(private readonly next: SpanProcessor) {}
  onStart(span: Span & ReadableSpan, context: Context): void {
    this.next.onStart(span as never, context);
  }
  onEnd(span: ReadableSpan): void {
    const attributes = span.attributes as Attributes;
    for (const key of Object.keys(attributes)) if (!KEPT.test(key)) delete attributes[key];
    const value = attributes["next.span_name"];
    if (typeof value === "string") attributes["next.span_name"] = withheldName(value);
    (span as { name: string }).name = withheldName(span.name);
    for (const event of span.events) (event as { attributes?: Attributes }).attributes = {};
    this.next.onEnd(span);
  }
  forceFlush(): Promise<void> {
    return this.next.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.next.shutdown();
  }
}

const slot = globalThis as typeof globalThis & { __kycTracing?: NodeTracerProvider };

/** Starts exporting spans to `endpoint` (OTLP/HTTP, `/v1/traces` appended) once per process; the provider. */
export function startTracing({ endpoint, serviceName }: { endpoint: string; serviceName: string }): NodeTracerProvider {
  if (slot.__kycTracing) return slot.__kycTracing;
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/$/, "")}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName }),
    spanProcessors: [new WithheldAttributes(new BatchSpanProcessor(exporter))],
  });
  provider.register();
  return (slot.__kycTracing = provider);
}

/** Sends what is buffered and stops (a graceful stop, a test). */
export async function stopTracing(): Promise<void> {
  const provider = slot.__kycTracing;
  slot.__kycTracing = undefined;
  await provider?.shutdown();
  trace.disable();
}

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
