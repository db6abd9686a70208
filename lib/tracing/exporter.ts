import "server-only";

import { trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type ReadableSpan, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";

/*
 * The SDK side of the traces (./tracer.ts makes the spans): OpenTelemetry's Node tracer provider and its OTLP/HTTP
 * exporter, started by instrumentation.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set and stopped by the graceful stop
 * (which sends what is buffered). Every span goes through `WithheldAttributes` before it leaves.
 */

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
