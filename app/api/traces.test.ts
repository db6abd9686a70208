import http from "node:http";
import type { AddressInfo } from "node:net";

import { trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as lookup } from "@/app/api/lookups/cpf/route";
import { GET as one } from "@/app/api/verifications/[publicId]/route";
import { GET as list } from "@/app/api/verifications/route";
import { config } from "@/lib/config";
import { startTracing, stopTracing } from "@/lib/tracing/exporter";
import { withPartnersHarness } from "@/test/partners-ops";

/*
 * Traces (issue 36, lib/tracing/tracer.ts): sent over OTLP/HTTP to a receiver this test starts, a request's span has
 * its upstream call and its database statements as children, the answer and the log lines carry its trace id, and
 * nothing in any span is personal data, a token or a key: not from our spans, not from a span named after a path as
 * requested (as Next's are).
 */

const h = withPartnersHarness();
const BASE = "http://localhost:3000/api";
const CPF = "529.982.247-25";

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: Array<{ key: string; value: OtlpValue }>;
};

const received: string[] = [];
let receiver: http.Server;
let provider: ReturnType<typeof startTracing>;

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      if (request.url === "/v1/traces") received.push(body);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  provider = startTracing({ endpoint: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`, serviceName: "kyc-test" });
});

afterAll(async () => {
  await stopTracing();
  await new Promise((resolve) => receiver.close(resolve));
});

function spans(): OtlpSpan[] {
  return received.flatMap((body) =>
    (JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }).resourceSpans.flatMap((resource) =>
      resource.scopeSpans.flatMap((scope) => scope.spans),
    ),
  );
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue !== undefined ? Number(value.intValue) : value?.boolValue);
};

describe("traces", () => {
  it("a request's span has its upstream call and database statements as children, and its trace id is in the answer and the log", async () => {
    const listed = (await (await list(h.request(`${BASE}/verifications?per_page=3`, { cookie: h.analystCookie }))).json()) as {
      items: Array<{ publicId: string }>;
    };
    const publicId = listed.items[0]!.publicId;
    const answer = await one(h.request(`${BASE}/verifications/${publicId}`, { cookie: h.analystCookie }), {
      params: Promise.resolve({ publicId }),
    });
    expect(answer.status).toBe(200);
    const detail = JSON.stringify(await answer.json());
    const traceparent = answer.headers.get("traceparent") ?? "";
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    const looked = await lookup(
      h.request(`${BASE}/lookups/cpf`, {
        method: "POST",
        cookie: h.adminCookie,
        body: { cpf: CPF, source: "receita", purpose: "Onboarding check" },
      }),
    );
    expect(looked.status).toBe(200);
    const lookupAnswer = JSON.stringify(await looked.json());
    // A span named after a path as requested, with its address, as Next's own spans are.
    trace
      .getTracer("next.js")
      .startSpan(`GET /verifications/${publicId}?cpf=${CPF}`, {
        attributes: { "http.target": `/verifications/${publicId}?cpf=${CPF}`, "http.method": "GET" },
      })
      .end();
    await provider.forceFlush();

    const all = spans();
    const traceId = traceparent.split("-")[1]!;
    const request = all.find((span) => span.traceId === traceId && span.name === "GET /api/verifications/[publicId]");
    expect(request, all.map((span) => span.name).join(", ")).toBeDefined();
    expect(attribute(request!, "http.route")).toBe("/api/verifications/[publicId]");
    expect(attribute(request!, "http.response.status_code")).toBe(200);
    const children = all.filter((span) => span.traceId === traceId && span.parentSpanId === request!.spanId);
    expect(children.filter((span) => span.name === "core.get_verification").map((span) => attribute(span, "kyc.status"))).toContain(200);
    expect(children.filter((span) => span.name === "db.query").length).toBeGreaterThan(0);
    expect(h.logLines.some((line) => line.includes('"event":"upstream_call"') && line.includes(`"traceId":"${traceId}"`))).toBe(true);

    // Withheld: the path as requested and its query; the name kept with its method.
    const named = all.find((span) => span.name.startsWith("GET /(path withheld)"));
    expect(named).toBeDefined();
    expect(named!.attributes?.map((entry) => entry.key)).toEqual(["http.method"]);

    // Nothing personal, no token, no key, no raw path, anywhere in what left the process.
    const sent = received.join("\n");
    const person = /"name":"([^"*]{4,})"/.exec(lookupAnswer)?.[1];
    const forbidden = [publicId, CPF, "52998224725", config().core.apiKey, config().partners.password, h.analystCookie.split("=")[1]!, "@"];
    if (person) forbidden.push(person);
    for (const value of forbidden) expect(sent.includes(value), `a span holds ${value.slice(0, 6)}…`).toBe(false);
    expect(detail.length).toBeGreaterThan(0);
  });
});
