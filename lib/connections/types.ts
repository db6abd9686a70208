import type { ConnectionFlow } from "@/lib/connections/flows";

/*
 * A connection as the dashboard shows it: never a secret, only a hint of its key. Shared: no server imports.
 */

export const ENVIRONMENTS = ["sandbox", "production"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** What the key can do, as its last test showed (null: not known yet). */
export interface ConnectionCapabilities {
  read: boolean | null;
  media: boolean | null;
  unmasked: boolean | null;
}

export interface ConnectionSummary {
  id: string;
  name: string;
  environment: Environment;
  integration: string | null;
  /** What tells keys apart: a provider key's public part (lz_XXXXXXXX), else its last four characters. */
  keyHint: string;
  /** When the key expires (lib/connections/key-life.ts): as stated, else the provider's default validity; null: unknown. */
  keyExpiresAt: string | null;
  /** Whether an admin stated that expiry (false: the documented default from when the key was added). */
  keyExpiryStated: boolean;
  /** After a rotation, the previous key and the end of the grace the provider gives it. */
  previousKey: { hint: string; until: string } | null;
  /** The service's flows the admin named with it, in the creation dialog's order (./flows.ts); empty: any flow id. */
  flows: ConnectionFlow[];
  /** The flow a new verification opens when none is chosen: the first named, else none (the integration's default). */
  defaultFlow: string | null;
  /** Whether this connection holds a partners account (lookups, KYC sessions, SMS, integration keys). */
  partners: boolean;
  capabilities: ConnectionCapabilities;
  testedAt: string | null;
  /** Why the last test failed (an error code), null when it passed or never ran. */
  problem: string | null;
  retiredAt: string | null;
  /** The connection the request was made under. */
  current: boolean;
}

export interface ConnectionListResponse {
  connections: ConnectionSummary[];
}

export interface ConnectionResponse {
  connection: ConnectionSummary;
}

/** The query parameter that names the connection on every API route (docs/http-api.md#connections). */
export const CONNECTION_PARAM = "connection";

export { PRIMARY_CONNECTION } from "@/lib/shared/connection-path";

export const CONNECTION_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
