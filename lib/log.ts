import { trace } from "@opentelemetry/api";

import "server-only";

import { config, type Config } from "@/lib/config";

/*
 * A tiny structured logger: one JSON object per line, info and below to stdout, warnings and errors to
 * stderr. Every line goes through a redaction pass first, because a log is the easiest place for a signed
 * URL, a token or a key to leak: query values of `token`, `signature` and `expires`, credential headers,
 * bearer tokens, anything shaped like a JWT, and any string registered as a secret are obscured.
 *
 * Level threshold: LOG_LEVEL in lib/config/ (debug | info | warn | error | silent), default info.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;
export type LogSink = (level: LogLevel, line: string) => void;

const LEVELS: Record<LogLevel | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
const REDACTED = "[redacted]";

// Shorter values would obscure ordinary words; real keys, passwords and tokens are longer than this.
const MIN_SECRET_LENGTH = 6;
// Long-lived secrets (configuration) are kept for the life of the process.
const secrets = new Set<string>();
// Rotating ones (bearer tokens, SMS JWTs, new key values) arrive all day long: only the most recent are
// kept, so the set, and the scan every log line makes of it, stays bounded however long the server runs.
// Older tokens have expired; their shapes (Bearer …, JWT) are still caught by the patterns below.
export const MAX_RECENT_SECRETS = 256;
const recentSecrets = new Set<string>();

/** Values (API key, partner password, integration token) that must never appear in a log line. */
export function registerSecrets(...values: Array<string | null | undefined>): void {
  for (const value of values) {
    if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
  }
}

/** A rotating secret (a bearer token, an SMS JWT, a new integration key value): kept among the most recent. */
export function registerRecentSecret(value: string | null | undefined): void {
  if (!value || value.length < MIN_SECRET_LENGTH || secrets.has(value)) return;
  recentSecrets.delete(value);
  recentSecrets.add(value);
  if (recentSecrets.size > MAX_RECENT_SECRETS) recentSecrets.delete(recentSecrets.values().next().value as string);
}

/** Registers every secret of the configuration (the clients' singletons call this; so may other modules). */
export function registerConfigSecrets(cfg: Config): void {
  registerSecrets(
    cfg.core.apiKey,
    cfg.partners.password,
    cfg.partners.integrationToken,
    ...[cfg.secrets.nextAuth, cfg.secrets.mediaSeal, cfg.secrets.auditHash, cfg.secrets.dataEncryption, cfg.webhooks.signing].flatMap(
      (ring) => ring?.keys.map((key) => key.secret) ?? [],
    ),
    cfg.oidc?.clientSecret,
    cfg.operations.metricsToken,
  );
}

// Query parameters whose values are credentials or make a URL usable (signed file URLs, widget links).
const SENSITIVE_QUERY = /([?&;](?:token|signature|expires|sig|api_key|apikey|access_token|code)=)[^&#\s"'<>]*/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
// A failed query's error (drizzle's "Failed query: …\nparams: …") carries the values it was sent: ids, keyed hashes,
// masked documents, sealed texts. The statement stays (it names the table and columns); the values do not.
const QUERY_PARAMS = /(\nparams: )[^\n]*/g;
// Object keys whose values are dropped whatever they hold.
const SENSITIVE_KEY =
  /^(authorization|proxy-authorization|x-api-key|api[-_]?key|password|passwd|secret|token|access_token|accesstoken|jwt|cookie|set-cookie|signature|x-integration-token)$/i;

/** Obscures credentials inside free text (messages, stacks, URLs). */
export function redactText(text: string): string {
  let out = text
    .replace(SENSITIVE_QUERY, `$1${REDACTED}`)
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(QUERY_PARAMS, `$1${REDACTED}`);
  for (const set of [secrets, recentSecrets]) {
    for (const secret of set) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/** Deep copy of a value with credentials obscured; keys named like credentials lose their value entirely. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth > 6) return "[truncated]";
  if (value instanceof Error) {
    return { name: value.name, message: redactText(value.message), stack: value.stack ? redactText(value.stack) : undefined };
  }
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = SENSITIVE_KEY.test(key) ? REDACTED : redact(item, depth + 1);
  }
  return out;
}

let sink: LogSink | undefined;

export type LogOutput = "stdout" | "stderr";
// On globalThis: Next evaluates instrumentation.ts and each route's bundle separately, each with its own copy of this
// module, and all of them write to the same two outputs.
const dropped = ((globalThis as typeof globalThis & { __kycLogLinesDropped?: Record<LogOutput, number> }).__kycLogLinesDropped ??= {
  stdout: 0,
  stderr: 0,
});

/** The lines each output could not take since the process started (kyc_log_lines_dropped_total, lib/metrics/). */
export function droppedLogLines(): Readonly<Record<LogOutput, number>> {
  return dropped;
}

/**
 * Where the lines go: stdout (debug, info) and stderr (warn, error) unless a sink is set. A process that
 * owns its output sets one: a CLI that prints its own report (`npm run bench` silences the lines while it
 * measures), a host that ships them to a collector, a test that reads them. A sink receives each line
 * redacted and past the LOG_LEVEL threshold; undefined puts back stdout/stderr.
 */
export function setLogSink(next: LogSink | undefined): void {
  sink = next;
}

function threshold(): number {
  // The logger must work even while the configuration is what failed (e.g. logging a ConfigError).
  try {
    return LEVELS[config().logLevel];
  } catch {
    return LEVELS.info;
  }
}

function write(level: LogLevel, event: string, fields: LogFields = {}): void {
  if (LEVELS[level] < threshold()) return;
  // The trace this line belongs to, when tracing is on (lib/tracing/tracer.ts): a log line and its request's spans meet.
  const span = trace.getActiveSpan()?.spanContext();
  const traceId = span && trace.isSpanContextValid(span) ? { traceId: span.traceId } : {};
  const entry = { time: new Date().toISOString(), level, event, ...traceId, ...(redact(fields) as LogFields) };
  let line: string;
  try {
    line = JSON.stringify(entry);
  } catch {
    line = JSON.stringify({ time: entry.time, level, event, note: "fields not serialisable" });
  }
  if (sink) return sink(level, line);
  const output = level === "warn" || level === "error" ? "stderr" : "stdout";
  // A line the output could not take (its reader gone: lib/runtime/output.ts) is counted, since no line can say so.
  process[output].write(`${line}\n`, (error) => {
    if (error) dropped[output] += 1;
  });
}

export const log = {
  debug: (event: string, fields?: LogFields) => write("debug", event, fields),
  info: (event: string, fields?: LogFields) => write("info", event, fields),
  warn: (event: string, fields?: LogFields) => write("warn", event, fields),
  error: (event: string, fields?: LogFields) => write("error", event, fields),
};
