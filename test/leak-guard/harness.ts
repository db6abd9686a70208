import { format } from "node:util";

import { sql } from "drizzle-orm";
import { vi } from "vitest";

import { apiRequest } from "@/test/auth";
import { setProcessDatabase, stubTestEnvironment, type TestDatabase, type TestDatabaseKind } from "@/test/db";
import type { SandboxHandle } from "@/test/sandbox";

import type { RecordingProxy, UpstreamExchange } from "./recording-proxy";

export type { UpstreamExchange } from "./recording-proxy";

/*
 * The leak guard's recording harness. While the flows run it keeps:
 *
 * - every answer a route handler gave (status, headers, body): what a browser would have received;
 * - every line the server process wrote: stdout and stderr (the structured logger writes there) and
 *   every console call, captured before anything reaches the terminal;
 * - every exchange with the upstream (request URL, headers and body, response body), recorded by a
 *   pass-through proxy the upstream clients are pointed at (recording-proxy.ts): this is where the run's
 *   secrets come from (bearer tokens, signed file URLs, widget addresses, key values the upstream issued),
 *   so the guard looks for the real values, not for guesses.
 *
 * The database is the one the handlers used (PGlite, or PostgreSQL when TEST_DATABASE_URL is set); after
 * the flows every row of every table is dumped as JSON text for the search.
 */

export interface RecordedResponse {
  /** The flow step, e.g. "lookups: POST /api/lookups/cpf (receita)". */
  label: string;
  method: string;
  path: string;
  status: number;
  headers: Array<[string, string]>;
  /** Text of the body; null for binary bodies (images), whose headers are still searched. */
  body: string | null;
}

export interface Place {
  /** Where, without quoting the content (the report must not leak what it reports). */
  where: string;
  text: string;
  kind: "response" | "log" | "database";
  /** The response's flow step, for the rules that allow a value in one answer. */
  label?: string;
  /** A database row's columns as text, to name the column a value was found in. */
  columns?: Record<string, string>;
}

/** A path for a report: query values dropped, long segments (tokens, ids) shortened. */
function describePath(path: string): string {
  const url = new URL(path, "http://x");
  const segments = url.pathname.split("/").map((segment) => (segment.length > 24 ? `${segment.slice(0, 8)}…` : segment));
  const keys = [...new Set(url.searchParams.keys())];
  return `${segments.join("/")}${keys.length ? `?${keys.map((key) => `${key}=…`).join("&")}` : ""}`;
}

/** A server output line for a report: its stream and, for a structured line, its event name. */
function describeLine(line: string): string {
  const stream = /^\[([a-z.]+)\]/.exec(line)?.[1] ?? "output";
  const event = /"event":"([a-z_]+)"/.exec(line)?.[1];
  return event ? `${stream}, event ${event}` : stream;
}

// `Promise<never>`: accepts every handler, whatever its own params type (each names its segments).
type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

export interface LeakHarness {
  sandbox: SandboxHandle;
  database: TestDatabase;
  responses: RecordedResponse[];
  upstream: UpstreamExchange[];
  logs: string[];
  /** Calls a route handler as the browser would, and records its answer. */
  call(
    label: string,
    handler: Handler,
    url: string,
    init?: { method?: string; cookie?: string; body?: unknown; headers?: Record<string, string>; params?: Record<string, string> },
  ): Promise<{ response: Response; text: string | null }>;
  /** Every row of every table, as JSON text. */
  databaseText(): Promise<Place[]>;
  stopCapture(): void;
  dispose(): Promise<void>;
}

const TEXTUAL = /^(application\/(json|problem\+json|javascript|xml)|text\/|image\/svg\+xml)/i;

function headersOf(headers: Headers): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  headers.forEach((value, name) => out.push([name, value]));
  for (const cookie of headers.getSetCookie())
    if (!out.some(([name, value]) => name === "set-cookie" && value === cookie)) out.push(["set-cookie", cookie]);
  return out;
}

/**
 * `sandbox` and `proxy` (in front of it) are shared by the runs of one file: the upstream clients are
 * process-wide singletons built from the first configuration they see, so every run must point at the
 * same address.
 */
export async function startLeakHarness(
  kind: TestDatabaseKind,
  sandbox: SandboxHandle,
  proxy: RecordingProxy,
  env: Record<string, string> = {},
): Promise<LeakHarness> {
  const logs: string[] = [];
  const responses: RecordedResponse[] = [];
  const upstream: UpstreamExchange[] = [];

  // The server's output, all of it: the logger writes to process.stdout/stderr; anything else may use console.
  const originalStdout = process.stdout.write.bind(process.stdout);
  const originalStderr = process.stderr.write.bind(process.stderr);
  const capture =
    (stream: "stdout" | "stderr") =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      logs.push(`[${stream}] ${typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")}`.trimEnd());
      const callback = rest.find((item): item is () => void => typeof item === "function");
      callback?.();
      return true;
    };
  process.stdout.write = capture("stdout") as typeof process.stdout.write;
  process.stderr.write = capture("stderr") as typeof process.stderr.write;
  const consoleSpies = (["log", "info", "warn", "error", "debug", "trace"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logs.push(`[console.${method}] ${format(...args)}`)),
  );

  stubTestEnvironment({ SANDBOX_URL: proxy.url, UPSTREAM_READ_RETRIES: "0", UPSTREAM_TIMEOUT_MS: "1500", LOG_LEVEL: "debug", ...env });
  const database = await kind.open();
  setProcessDatabase(database);

  proxy.recordInto(upstream);

  let capturing = true;
  const stopCapture = () => {
    if (!capturing) return;
    capturing = false;
    process.stdout.write = originalStdout;
    process.stderr.write = originalStderr;
    for (const spy of consoleSpies) spy.mockRestore();
    proxy.recordInto(undefined);
  };

  return {
    sandbox,
    database,
    responses,
    upstream,
    logs,
    async call(label, handler, url, init = {}) {
      const request = apiRequest(url, {
        method: init.method,
        cookie: init.cookie,
        body: init.body,
        headers: { "x-kyc-peer-address": "198.51.100.23", ...init.headers },
      });
      const response = await handler(request, { params: Promise.resolve(init.params ?? {}) as Promise<never> });
      const textual = TEXTUAL.test(response.headers.get("content-type") ?? "") || response.status >= 400;
      const text = textual ? await response.clone().text() : (await response.clone().arrayBuffer(), null);
      responses.push({
        label,
        method: request.method,
        path: new URL(request.url).pathname + new URL(request.url).search,
        status: response.status,
        headers: headersOf(response.headers),
        body: text,
      });
      return { response, text };
    },
    async databaseText() {
      const rowsOf = <T>(result: unknown) => ((result as { rows?: T[] }).rows ?? []) as T[];
      const tables = rowsOf<{ table_schema: string; table_name: string }>(
        await database.db.execute(
          sql`select table_schema, table_name from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
        ),
      );
      const places: Place[] = [];
      for (const { table_schema, table_name } of tables) {
        const rows = rowsOf<{ line: string }>(
          await database.db.execute(sql.raw(`select row_to_json(t)::text as line from "${table_schema}"."${table_name}" t`)),
        );
        rows.forEach((row, index) => {
          const columns = Object.fromEntries(
            Object.entries(JSON.parse(row.line) as Record<string, unknown>).map(([name, value]) => [
              name,
              typeof value === "string" ? value : JSON.stringify(value),
            ]),
          );
          places.push({ kind: "database", where: `database ${table_schema}.${table_name} row ${index + 1}`, text: row.line, columns });
        });
      }
      return places;
    },
    stopCapture,
    async dispose() {
      stopCapture();
      setProcessDatabase(undefined);
      await database.dispose();
      vi.unstubAllEnvs();
    },
  };
}

/** Everything the run produced, as searchable places. */
export async function placesOf(harness: LeakHarness): Promise<Place[]> {
  const places: Place[] = [];
  for (const response of harness.responses) {
    const head = response.headers.map(([name, value]) => `${name}: ${value}`).join("\n");
    places.push({
      kind: "response",
      label: response.label,
      where: `response to "${response.label}" (${response.method} ${describePath(response.path)} → ${response.status})`,
      text: `${head}\n\n${response.body ?? ""}`,
    });
  }
  harness.logs.forEach((line, index) =>
    places.push({ kind: "log", where: `server output line ${index + 1} (${describeLine(line)})`, text: line }),
  );
  places.push(...(await harness.databaseText()));
  return places;
}
