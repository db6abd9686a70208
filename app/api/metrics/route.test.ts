import fs from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { GET as stream } from "@/app/api/events/stream/route";
import { POST as lookup } from "@/app/api/lookups/cpf/route";
import { GET as one } from "@/app/api/verifications/[publicId]/route";
import { GET as list } from "@/app/api/verifications/route";
import { attemptPasswordSignIn } from "@/lib/auth/server/sign-in";
import { metrics as registryMetrics } from "@/lib/metrics/registry";
import { notificationOutbox } from "@/lib/notifications/server/tables";
import { startJob, stopJobs } from "@/lib/runtime/scheduler";
import { stubConfigEnv } from "@/test/config";
import { withPartnersHarness } from "@/test/partners-ops";

import { GET as metrics } from "./route";

/*
 * The metrics (issue 36): after a scripted session, a scrape finds each family with sane values, and no label
 * carries an id, a CPF, an email or an address: routes by their file's name, operations by theirs. Off without
 * METRICS_TOKEN (404), refused without the token (401).
 */

const TOKEN = "metrics-token-for-tests-0123456789abcdef";
const h = withPartnersHarness({ METRICS_TOKEN: TOKEN, LOOKUP_LIMIT_PER_MINUTE: "1" });
const BASE = "http://localhost:3000/api";
const CPF = "529.982.247-25";
const ADDRESS = "203.0.113.77";

const scrape = (authorization?: string) => metrics(h.request(`${BASE}/metrics`, { headers: authorization ? { authorization } : {} }));

/** The samples of the text format: name, labels and value. */
function samples(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  return text
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1]!, pair[2]!]));
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

describe("GET /api/metrics", () => {
  it("is off without METRICS_TOKEN and refuses a scraper without the token", async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape("Bearer not-the-token")).status).toBe(401);
    expect((await scrape(TOKEN)).status).toBe(401);
    stubConfigEnv({ METRICS_TOKEN: "" });
    try {
      expect((await scrape(`Bearer ${TOKEN}`)).status).toBe(404);
    } finally {
      stubConfigEnv({ METRICS_TOKEN: TOKEN });
    }
  });

  it("after a session, has each family with sane values and no label carrying an id, a CPF, an email or an address", async () => {
    // A session: the list, one verification, a failed sign-in, a lookup past its quota, a job's look, a message
    // waiting in the outbox, a live stream opened and closed.
    const listed = (await (await list(h.request(`${BASE}/verifications?per_page=5`, { cookie: h.analystCookie }))).json()) as {
      items: Array<{ publicId: string }>;
    };
    const publicId = listed.items[0]!.publicId;
    const detail = await one(h.request(`${BASE}/verifications/${publicId}`, { cookie: h.analystCookie }), {
      params: Promise.resolve({ publicId }),
    });
    expect(detail.status).toBe(200);
    await attemptPasswordSignIn(h.db.db, {
      email: "nobody@corp.example.net",
      password: "wrong",
      address: ADDRESS,
      allowDemoAccounts: false,
    });
    const lookupOnce = () =>
      lookup(
        h.request(`${BASE}/lookups/cpf`, {
          method: "POST",
          cookie: h.adminCookie,
          body: { cpf: CPF, source: "receita", purpose: "Onboarding check" },
        }),
      );
    expect((await lookupOnce()).status).toBe(200);
    expect((await lookupOnce()).status).toBe(429);
    let looked = false;
    startJob({ name: "test.metrics", maxSleepMs: 60_000, run: async () => ((looked = true), "ran") });
    while (!looked) await new Promise((resolve) => setTimeout(resolve, 10));
    await stopJobs();
    await h.db.db.insert(notificationOutbox).values({ channel: "chat", recipient: null, subject: "s", body: "b" });
    const abort = new AbortController();
    const live = await stream(new Request(`${BASE}/events/stream`, { headers: { cookie: h.analystCookie }, signal: abort.signal }));
    expect(live.status).toBe(200);
    const reader = live.body!.getReader();
    await reader.read();
    const whileOpen = samples(await (await scrape(`Bearer ${TOKEN}`)).text());
    abort.abort();
    await reader.cancel();

    const response = await scrape(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const all = samples(await response.text());
    const value = (name: string, labels: Record<string, string> = {}) =>
      all
        .filter((sample) => sample.name === name && Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted))
        .reduce((sum, sample) => sum + sample.value, 0);

    expect(
      value("kyc_http_request_duration_seconds_count", { route: "/api/verifications/[publicId]", method: "GET", status: "200" }),
    ).toBeGreaterThanOrEqual(1);
    expect(value("kyc_http_request_duration_seconds_count", { route: "/api/lookups/cpf", status: "429" })).toBe(1);
    expect(
      value("kyc_upstream_call_duration_seconds_count", { upstream: "core", operation: "get_verification", outcome: "ok" }),
    ).toBeGreaterThanOrEqual(1);
    expect(value("kyc_upstream_call_duration_seconds_count", { upstream: "partners" })).toBeGreaterThanOrEqual(1);
    expect(value("kyc_db_query_duration_seconds_count", { driver: "pglite" })).toBeGreaterThan(10);
    expect(value("kyc_audit_batch_commit_seconds_count", { outcome: "committed" })).toBeGreaterThanOrEqual(1);
    expect(value("kyc_audit_events_committed_total")).toBeGreaterThanOrEqual(
      value("kyc_audit_batch_commit_seconds_count", { outcome: "committed" }),
    );
    expect(value("kyc_job_runs_total", { job: "test.metrics", outcome: "ran" })).toBe(1);
    expect(value("kyc_quota_refusals_total", { kind: "lookup" })).toBe(1);
    expect(value("kyc_sign_in_failures_total", { reason: "unknown_account" })).toBe(1);
    expect(whileOpen.find((sample) => sample.name === "kyc_live_streams_open")?.value).toBe(1);
    expect(value("kyc_live_streams_open")).toBe(0);
    expect(value("kyc_notification_outbox_depth")).toBe(1);
    expect(value("kyc_notification_outbox_oldest_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(value("kyc_nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(value("kyc_process_resident_memory_bytes")).toBeGreaterThan(1_000_000);
    // Buckets add up: a histogram's +Inf bucket is its count.
    expect(value("kyc_http_request_duration_seconds_bucket", { le: "+Inf" })).toBe(value("kyc_http_request_duration_seconds_count"));

    // No label value is personal, an id or an address; routes are their files' names.
    const labelValues = all.flatMap((sample) => Object.values(sample.labels));
    for (const forbidden of [publicId, CPF, "52998224725", "@", ADDRESS, "127.0.0.1", "localhost", "http"]) {
      expect(
        labelValues.filter((label) => label.includes(forbidden)),
        forbidden,
      ).toEqual([]);
    }
    for (const route of new Set(all.map((sample) => sample.labels.route).filter(Boolean))) {
      expect(route).toMatch(/^\/api(\/([a-z0-9-]+|\[[A-Za-z]+\]|\[\.\.\.[A-Za-z]+\]))*$/);
    }
  });

  it("the sample dashboard, the alert rules and the operations guide name only families the registry has", async () => {
    const registered = new Set((await registryMetrics().registry.getMetricsAsJSON()).map((family) => family.name));
    const known = (name: string) => registered.has(name) || registered.has(name.replace(/_(bucket|count|sum)$/, ""));
    const read = (file: string) => fs.readFileSync(path.join(process.cwd(), file), "utf8");
    const texts = {
      "docs/operations/grafana-dashboard.json": read("docs/operations/grafana-dashboard.json"),
      "docs/operations/prometheus-alerts.yml": read("docs/operations/prometheus-alerts.yml"),
      // Its Metrics section: elsewhere kyc_ also begins database roles and a quota's kind.
      "docs/operations.md#metrics": /\n## Metrics\n([\s\S]*?)\n## /.exec(read("docs/operations.md"))?.[1] ?? "",
    };
    for (const [file, text] of Object.entries(texts)) {
      // A family's name has a unit or a noun after its subject (kyc_job_runs_total); `kyc_start` is a quota's kind.
      const named = new Set(text.match(/\bkyc_[a-z0-9]+_[a-z0-9_]+/g) ?? []);
      expect(named.size, file).toBeGreaterThan(0);
      expect(
        [...named].filter((name) => !known(name)),
        file,
      ).toEqual([]);
    }
  });
});
