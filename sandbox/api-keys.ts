/* The core API's keys (`X-API-Key`): integration, environment, permissions and IP allow-list of each. */
import type { Environment } from "./fixtures/verifications";

export type Permission = "view" | "media" | "unmasked";

export interface ApiKey {
  integration: string;
  environment: Environment;
  permissions: ReadonlySet<Permission>;
  /** CIDR ranges; null: any address. */
  ipAllow: readonly string[] | null;
}

const ALL: Permission[] = ["view", "media", "unmasked"];

export const API_KEYS: ReadonlyMap<string, ApiKey> = new Map<string, ApiKey>([
  [
    "sbx_core_view_media",
    { integration: "int_main", environment: "sandbox", permissions: new Set<Permission>(["view", "media"]), ipAllow: null },
  ],
  ["sbx_core_view", { integration: "int_main", environment: "sandbox", permissions: new Set<Permission>(["view"]), ipAllow: null }],
  ["sbx_core_unmasked", { integration: "int_main", environment: "sandbox", permissions: new Set<Permission>(ALL), ipAllow: null }],
  ["sbx_core_none", { integration: "int_main", environment: "sandbox", permissions: new Set<Permission>(), ipAllow: null }],
  ["sbx_core_production", { integration: "int_main", environment: "production", permissions: new Set<Permission>(ALL), ipAllow: null }],
  [
    "sbx_core_other_integration",
    { integration: "int_other", environment: "sandbox", permissions: new Set<Permission>(ALL), ipAllow: null },
  ],
  // Two keys in the provider's own format, `lz_` + eight characters (the key's public part) + `_` + the secret
  // (legitimuz-core-documentation, api/autenticacao.mdx at 40274c2), both of int_main's sandbox: the pair a rotation
  // makes, the new key beside the old one through its grace period.
  [
    "lz_sbxmain1_Hq7pW2xLr9TfK4cVn8Zs",
    { integration: "int_main", environment: "sandbox", permissions: new Set<Permission>(ALL), ipAllow: null },
  ],
  [
    "lz_sbxmain2_Jd3mY6bQe1RuG5hXk0Pa",
    { integration: "int_main", environment: "sandbox", permissions: new Set<Permission>(ALL), ipAllow: null },
  ],
  [
    "sbx_core_ip_restricted",
    { integration: "int_main", environment: "sandbox", permissions: new Set<Permission>(ALL), ipAllow: ["203.0.113.0/24"] },
  ],
]);

/** A provider key's public part, `lz_` and eight characters (api/autenticacao.mdx at 40274c2). */
const PUBLIC_PART = /^lz_[A-Za-z0-9]{8}$/;

/**
 * Each key's end of validity, when one was set: a rotation at the provider shortens the old key's validity to its
 * grace period (24 hours by default, 7 days at most, 0 revokes it at once) and the key is refused after it
 * (api/autenticacao.mdx at 40274c2). The provider rotates from its own console, so the control route
 * `POST /sandbox/keys/{public part}/grace` stands for that console here. Read on the sandbox clock.
 */
export class KeyValidity {
  private readonly until = new Map<string, number>();

  static readonly MAX_GRACE_SECONDS = 7 * 86_400;

  /** Sets (or, with null, lifts) the end of the provider-format keys whose public part is `publicPart`; false: none. */
  grace(publicPart: string, seconds: number | null, nowMs: number): boolean {
    if (!PUBLIC_PART.test(publicPart)) return false;
    const keys = [...API_KEYS.keys()].filter((key) => key.startsWith(`${publicPart}_`));
    for (const key of keys) {
      if (seconds === null) this.until.delete(key);
      else this.until.set(key, nowMs + seconds * 1000);
    }
    return keys.length > 0;
  }

  expired(key: string, nowMs: number): boolean {
    const until = this.until.get(key);
    return until !== undefined && nowMs >= until;
  }
}
