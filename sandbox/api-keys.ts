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
