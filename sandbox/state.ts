/*
 * Everything the sandbox remembers: the clock, accounts and integrations of the partners API, core API keys,
 * the verification stores (one per integration and environment), KYC sessions and SMS codes. In memory
 * only: a restart starts over from SANDBOX_SEED.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";

import type { FaultRule, SandboxConfig } from "./config";
import {
  createdRecord,
  FLOWS,
  generateDataset,
  indexOfCpf,
  indexOfPublicId,
  JOURNEYS,
  materialize,
  STATUSES,
  type DatasetSpec,
  type Environment,
  type GeneratedDataset,
  type VerificationRecord,
} from "./fixtures/verifications";
import type { ImageKind } from "./images";

/* ---------- clock ---------- */

export class Clock {
  private offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
  reset(): void {
    this.offsetMs = 0;
  }
  offsetSeconds(): number {
    return this.offsetMs / 1000;
  }
}

/* ---------- request log ---------- */

export interface LoggedRequest {
  method: string;
  path: string;
  /** Names of the query parameters only: values are never kept. */
  query: string[];
  at: string;
}

export class RequestLog {
  static readonly LIMIT = 5000;
  private entries: LoggedRequest[] = [];
  add(entry: LoggedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > RequestLog.LIMIT) this.entries.splice(0, this.entries.length - RequestLog.LIMIT);
  }
  all(): LoggedRequest[] {
    return [...this.entries];
  }
  clear(): void {
    this.entries = [];
  }
}

/* ---------- faults ---------- */

export class Faults {
  private rules = new Map<string, FaultRule>();
  set(rule: FaultRule): void {
    this.rules.set(rule.path_prefix, rule);
  }
  clear(): void {
    this.rules.clear();
  }
  all(): FaultRule[] {
    return [...this.rules.values()];
  }
  /** The rule with the longest prefix of `path`. */
  match(path: string): FaultRule | null {
    let best: FaultRule | null = null;
    for (const rule of this.rules.values()) {
      if (path.startsWith(rule.path_prefix) && (!best || rule.path_prefix.length > best.path_prefix.length)) best = rule;
    }
    return best;
  }
}

/* ---------- partners: accounts and integrations ---------- */

export interface Account {
  tenantId: number;
  userId: number;
  username: string;
  passwordDigest: Buffer;
}

export interface Integration {
  id: number;
  id_user: number;
  tenant_id: number;
  label: string;
  domain: string;
  uuid: string;
  created_at: string;
  updated_at: string;
}

export function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** ISO 8601 with an explicit UTC offset, as the partners API shows timestamps: 2026-10-01T12:00:00+00:00. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/* ---------- core: API keys ---------- */

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
  [
    "sbx_core_ip_restricted",
    { integration: "int_main", environment: "sandbox", permissions: new Set<Permission>(ALL), ipAllow: ["203.0.113.0/24"] },
  ],
]);

/* ---------- core: verifications ---------- */

export interface ListFilter {
  /** statusMask[code] = 1 when the status is wanted; null: all. */
  statusMask: Uint8Array | null;
  /** Code in FLOWS, -1 for a value that matches nothing, null for all. */
  flow: number | null;
  journey: number | null;
  fromMs: number | null;
  /** Exclusive. */
  toMs: number | null;
  page: number;
  perPage: number;
}

export class VerificationStore {
  private readonly superseded: Uint8Array;
  /** Created through the API, newest first. */
  private created: VerificationRecord[] = [];
  private readonly createdById = new Map<string, VerificationRecord>();
  private readonly createdSuperseded = new Set<string>();

  constructor(readonly dataset: GeneratedDataset) {
    this.superseded = new Uint8Array(dataset.spec.size);
  }

  get size(): number {
    return this.dataset.spec.size;
  }

  find(publicId: string): VerificationRecord | null {
    const created = this.createdById.get(publicId);
    if (created) return created;
    const index = indexOfPublicId(this.dataset, publicId);
    return index < 0 ? null : materialize(this.dataset, index);
  }

  /** One pass over the typed arrays; only the page's records are materialised. */
  list(filter: ListFilter): { items: VerificationRecord[]; total: number } {
    const first = (filter.page - 1) * filter.perPage;
    const last = first + filter.perPage;
    const items: VerificationRecord[] = [];
    let total = 0;

    for (const record of this.created) {
      if (this.createdSuperseded.has(record.publicId)) continue;
      if (filter.statusMask && !filter.statusMask[STATUSES.indexOf(record.status)]) continue;
      if (filter.flow !== null && FLOWS[filter.flow] !== record.flow) continue;
      if (filter.journey !== null && JOURNEYS[filter.journey] !== record.journey) continue;
      if (filter.fromMs !== null && record.createdAt < filter.fromMs) continue;
      if (filter.toMs !== null && record.createdAt >= filter.toMs) continue;
      if (total >= first && total < last) items.push(record);
      total++;
    }

    const { createdAt, status, flow, journey } = this.dataset;
    // createdAt is sorted newest first: the date bounds are a range of indexes.
    const begin = filter.toMs === null ? 0 : firstBelow(createdAt, filter.toMs);
    const end = filter.fromMs === null ? createdAt.length : firstBelow(createdAt, filter.fromMs);
    const mask = filter.statusMask;
    const wantFlow = filter.flow;
    const wantJourney = filter.journey;
    const superseded = this.superseded;
    const picked: number[] = [];
    for (let i = begin; i < end; i++) {
      if (superseded[i] === 1) continue;
      if (mask !== null && mask[status[i]!] !== 1) continue;
      if (wantFlow !== null && flow[i] !== wantFlow) continue;
      if (wantJourney !== null && journey[i] !== wantJourney) continue;
      if (total >= first && total < last) picked.push(i);
      total++;
    }
    for (const i of picked) items.push(materialize(this.dataset, i));
    return { items, total };
  }

  /** A new verification becomes the person's most recent one: their older one leaves the list. */
  create(cpf: string, nowMs: number): VerificationRecord {
    const record = createdRecord(randomUUID(), cpf, nowMs, "default", "onboarding");
    const generated = indexOfCpf(this.dataset, cpf);
    if (generated >= 0) this.superseded[generated] = 1;
    for (const older of this.created) if (older.cpf === cpf) this.createdSuperseded.add(older.publicId);
    this.created.push(record);
    this.created.sort((a, b) => b.createdAt - a.createdAt);
    this.createdById.set(record.publicId, record);
    return record;
  }
}

/** First index whose value is below `bound` in an array sorted in decreasing order. */
function firstBelow(values: Float64Array, bound: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! >= bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* ---------- partners: KYC sessions and SMS ---------- */

export interface KycSession {
  sessionId: string;
  personId: number;
  cpf: string;
  integrationUuid: string;
  createdAt: number;
}

export interface SmsCode {
  code: string;
  sentAt: number;
  expiresAt: number;
  wrongAttempts: number;
}

/* ---------- signed files ---------- */

export interface FileEntry {
  personSeed: number;
  kind: ImageKind;
}

/* ---------- the whole state ---------- */

export class SandboxState {
  readonly clock = new Clock();
  readonly log = new RequestLog();
  readonly faults = new Faults();
  readonly startedAt = Date.now();
  /** Per-process secrets: signed URLs and JWTs do not survive a restart. */
  readonly fileSecret = randomBytes(32);
  readonly jwtSecret = randomBytes(32);
  /** `http://127.0.0.1:PORT`, known once listening. */
  publicBase = "http://127.0.0.1";

  readonly accounts: Account[] = [
    { tenantId: 1, userId: 1, username: "backoffice", passwordDigest: digest("sandbox-partner-password") },
    { tenantId: 2, userId: 2, username: "other", passwordDigest: digest("other-partner-password") },
  ];
  readonly integrations = new Map<string, Integration>();
  private nextIntegrationId = 3;

  readonly stores = new Map<string, VerificationStore>();
  readonly files = new Map<string, FileEntry>();
  readonly sessions = new Map<string, KycSession>();
  private nextPersonId = 1001;
  readonly smsCodes = new Map<string, SmsCode>();
  /** Last code sent to each phone (digits), for GET /sandbox/sms/outbox. */
  readonly smsOutbox = new Map<string, string>();

  constructor(readonly config: SandboxConfig) {
    const seeded = isoWithOffset(Date.UTC(2026, 9, 1, 12, 0, 0));
    this.addIntegration({
      id: 1,
      id_user: 1,
      tenant_id: 1,
      label: "Back office (sandbox)",
      domain: "backoffice.sandbox.local",
      uuid: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
      created_at: seeded,
      updated_at: seeded,
    });
    this.addIntegration({
      id: 2,
      id_user: 2,
      tenant_id: 2,
      label: "Other account",
      domain: "other.sandbox.local",
      uuid: "7f3e2d1c-0b9a-4876-a5b4-c3d2e1f0a9b8",
      created_at: seeded,
      updated_at: seeded,
    });
    if (config.faults) this.faults.set(config.faults);

    const specs: DatasetSpec[] = [
      { index: 0, integration: "int_main", environment: "sandbox", size: config.verifications, cpfStart: 0 },
      { index: 1, integration: "int_main", environment: "production", size: 50, cpfStart: config.verifications },
      { index: 2, integration: "int_other", environment: "sandbox", size: 50, cpfStart: config.verifications + 50 },
    ];
    for (const spec of specs) {
      this.stores.set(
        storeKey(spec.integration, spec.environment),
        new VerificationStore(generateDataset(config.seed, spec, this.startedAt)),
      );
    }
  }

  private addIntegration(integration: Integration): void {
    this.integrations.set(integration.uuid, integration);
  }

  createIntegration(account: Account, domain: string, label: string): Integration {
    const now = isoWithOffset(this.clock.now());
    const integration: Integration = {
      id: this.nextIntegrationId++,
      id_user: account.userId,
      tenant_id: account.tenantId,
      label,
      domain,
      uuid: randomUUID(),
      created_at: now,
      updated_at: now,
    };
    this.addIntegration(integration);
    return integration;
  }

  domainsOf(account: Account): Set<string> {
    const domains = new Set<string>();
    for (const integration of this.integrations.values()) if (integration.tenant_id === account.tenantId) domains.add(integration.domain);
    return domains;
  }

  store(integration: string, environment: Environment): VerificationStore | undefined {
    return this.stores.get(storeKey(integration, environment));
  }

  createSession(cpf: string, integrationUuid: string): KycSession {
    const session: KycSession = {
      sessionId: randomUUID(),
      personId: this.nextPersonId++,
      cpf,
      integrationUuid,
      createdAt: this.clock.now(),
    };
    this.sessions.set(session.sessionId, session);
    return session;
  }
}

function storeKey(integration: string, environment: Environment): string {
  return `${integration}/${environment}`;
}
