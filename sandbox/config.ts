/* The sandbox's settings, all from the environment (README, "Data" and "Control routes"). */
import { isIP } from "node:net";

export interface FaultRule {
  path_prefix: string;
  latency_ms: number;
  error_rate: number;
  timeout_rate: number;
  malformed_rate: number;
  status: number;
}

export interface SandboxConfig {
  /** The address to listen on (`SANDBOX_HOST`, default 127.0.0.1: loopback only, the demo credentials are public). */
  host: string;
  port: number;
  seed: number;
  verifications: number;
  pageParam: string;
  domainHeader: string;
  smsJwtHeader: string;
  smsTokenHeader: string;
  faults: FaultRule | null;
  /** Where the id counters live (`SANDBOX_DATA_DIR`, default `.data/sandbox`): ids never repeat across restarts. */
  dataDir: string;
  /** Webhook destination at start (`SANDBOX_WEBHOOK_URL`); POST /sandbox/webhooks changes it at run time. */
  webhookUrl: string | null;
  webhookSecret: string;
  /** `envelope` (default) or `flat`: the two payload shapes the provider's material shows. */
  webhookShape: WebhookShape;
  /** Whether deliveries carry `X-Legitimuz-Delivery` (`SANDBOX_WEBHOOK_DELIVERY_HEADER`, `on` by default): only the examples show it. */
  webhookDeliveryHeader: boolean;
}

export type WebhookShape = "envelope" | "flat";

export const MAX_VERIFICATIONS = 1_000_000;
const LIST_PARAMS = ["status", "flow", "journey", "from", "to", "per_page"];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new Error(`${name} must be an integer between ${min} and ${max}`);
  return Number(raw);
}

function rate(env: NodeJS.ProcessEnv, name: string): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return 0;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error(`${name} must be a number between 0 and 1`);
  return value;
}

function headerName(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(raw)) throw new Error(`${name} must be an HTTP header name`);
  return raw;
}

function listenHost(env: NodeJS.ProcessEnv): string {
  const raw = (env.SANDBOX_HOST ?? "").trim();
  if (raw === "") return "127.0.0.1";
  const hostName = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
  if (isIP(raw) === 0 && !hostName.test(raw)) throw new Error("SANDBOX_HOST must be a host name or an IP address");
  return raw;
}

/** The host part of a URL that reaches, from this machine, a server listening on `host`. */
export function reachableHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return isIP(host) === 6 ? `[${host}]` : host;
}

function webhookUrl(env: NodeJS.ProcessEnv): string | null {
  const raw = env.SANDBOX_WEBHOOK_URL;
  if (raw === undefined || raw === "") return null;
  if (!/^https?:\/\//.test(raw) || !URL.canParse(raw)) throw new Error("SANDBOX_WEBHOOK_URL must be an http(s) URL");
  return raw;
}

function webhookShape(env: NodeJS.ProcessEnv): WebhookShape {
  const raw = env.SANDBOX_WEBHOOK_SHAPE || "envelope";
  if (raw !== "envelope" && raw !== "flat") throw new Error("SANDBOX_WEBHOOK_SHAPE must be envelope or flat");
  return raw;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw !== "on" && raw !== "off") throw new Error(`${name} must be on or off`);
  return raw === "on";
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): SandboxConfig {
  const pageParam = env.SANDBOX_PAGE_PARAM || "page";
  if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(pageParam) || LIST_PARAMS.includes(pageParam)) {
    throw new Error("SANDBOX_PAGE_PARAM must be a parameter name other than the list's filters");
  }
  const latency = integer(env, "SANDBOX_LATENCY_MS", 0, 0, 600_000);
  const errorRate = rate(env, "SANDBOX_ERROR_RATE");
  const timeoutRate = rate(env, "SANDBOX_TIMEOUT_RATE");
  const malformedRate = rate(env, "SANDBOX_MALFORMED_RATE");
  const anyFault = latency > 0 || errorRate > 0 || timeoutRate > 0 || malformedRate > 0;
  return {
    host: listenHost(env),
    port: integer(env, "SANDBOX_PORT", 4010, 0, 65535),
    seed: integer(env, "SANDBOX_SEED", 1, 0, 4294967295),
    verifications: integer(env, "SANDBOX_VERIFICATIONS", 500, 0, MAX_VERIFICATIONS),
    pageParam,
    domainHeader: headerName(env, "SANDBOX_DOMAIN_HEADER", "Origin").toLowerCase(),
    // The provider's reference: a Bearer JWT and the integration token in x-api-key (sms/validate-code).
    smsJwtHeader: headerName(env, "SANDBOX_SMS_JWT_HEADER", "Authorization").toLowerCase(),
    smsTokenHeader: headerName(env, "SANDBOX_SMS_TOKEN_HEADER", "x-api-key").toLowerCase(),
    dataDir: env.SANDBOX_DATA_DIR || ".data/sandbox",
    webhookUrl: webhookUrl(env),
    webhookSecret: env.SANDBOX_WEBHOOK_SECRET ?? "",
    webhookShape: webhookShape(env),
    webhookDeliveryHeader: onOff(env, "SANDBOX_WEBHOOK_DELIVERY_HEADER", true),
    faults: anyFault
      ? {
          path_prefix: "/",
          latency_ms: latency,
          error_rate: errorRate,
          timeout_rate: timeoutRate,
          malformed_rate: malformedRate,
          status: 503,
        }
      : null,
  };
}
