/*
 * Everything the sandbox remembers: the clock, accounts and integrations of the partners API, core API keys,
 * the verification stores (one per integration and environment), KYC sessions and SMS codes, and the
 * webhook outbox. In memory, except the id counters (ids.ts): a restart starts the data over from
 * SANDBOX_SEED but never hands out an integration or person id twice.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";

import type { FaultRule, SandboxConfig } from "./config";
import { hashString, mulberry32 } from "./fixtures/prng";
import {
  createdRecord,
  filesFor,
  FLOWS,
  generateDataset,
  indexOfCpf,
  indexOfPublicId,
  JOURNEYS,
  materialize,
  STATUSES,
  stepsFor,
  type DatasetSpec,
  type Environment,
  type Flow,
  type GeneratedDataset,
  type Status,
  type VerificationRecord,
} from "./fixtures/verifications";
import { IdCounters } from "./ids";
import type { ImageKind } from "./images";
import { WebhookOutbox, type VerificationEvent } from "./webhooks";

/**
 * How long a verification's flow stays open (`expires_at`). ASSUMPTION: the provider's material says only
 * "valid for a limited time" (api/verifications.mdx) without a figure.
 */
export const VERIFICATION_TTL_MS = 24 * 3600_000;

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
  /** Position in the log since start, never reused (a reader's cursor: `GET /sandbox/requests?after=`). */
  seq: number;
  method: string;
  path: string;
  /** Names of the query parameters only: values are never kept. */
  query: string[];
  at: string;
}

export class RequestLog {
  static readonly LIMIT = 5000;
  private entries: LoggedRequest[] = [];
  private last = 0;
  add(entry: Omit<LoggedRequest, "seq">): void {
    this.last += 1;
    this.entries.push({ seq: this.last, ...entry });
    if (this.entries.length > RequestLog.LIMIT) this.entries.splice(0, this.entries.length - RequestLog.LIMIT);
  }
  all(): LoggedRequest[] {
    return [...this.entries];
  }
  /** The entries after `seq`, the newest seq, and whether entries after `seq` were already dropped. */
  since(seq: number): { requests: LoggedRequest[]; last: number; truncated: boolean } {
    const requests = this.entries.filter((entry) => entry.seq > seq);
    return { requests, last: this.last, truncated: seq < this.last && (requests[0]?.seq ?? this.last + 1) > seq + 1 };
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

/** What a repeated creation is compared on (idempotency by `ref_id`). */
export interface CreationRequest {
  refId: string;
  fingerprint: string;
}

/** A status set through the control route, or an expiry, kept over the generated record. */
interface Override {
  decidedAt: number | null;
  expiresAt?: number;
}

export class VerificationStore {
  private readonly superseded: Uint8Array;
  private readonly byRef = new Map<string, { publicId: string; fingerprint: string }>();
  private readonly refOf = new Map<string, string>();
  private readonly overrides = new Map<string, Override>();
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
    return index < 0 ? null : this.view(index);
  }

  private view(index: number): VerificationRecord {
    const record = materialize(this.dataset, index);
    const override = this.overrides.get(record.publicId);
    return override ? { ...record, decidedAt: override.decidedAt } : record;
  }

  refIdOf(publicId: string): string | null {
    return this.refOf.get(publicId) ?? null;
  }

  /** ASSUMPTION (no figure in the material): a flow stays open VERIFICATION_TTL_MS after creation. */
  expiresAt(record: VerificationRecord): number {
    return this.overrides.get(record.publicId)?.expiresAt ?? record.createdAt + VERIFICATION_TTL_MS;
  }

  /**
   * Idempotency on `ref_id` (api/verifications.mdx): the same ref_id with the same body is the existing
   * verification; with a different body it is a conflict.
   */
  existing(request: CreationRequest): { record: VerificationRecord } | { conflict: true } | null {
    const known = this.byRef.get(request.refId);
    if (!known) return null;
    if (known.fingerprint !== request.fingerprint) return { conflict: true };
    return { record: this.find(known.publicId)! };
  }

  /**
   * Moves a verification to a new status (control route). Steps follow the status as in the generated data;
   * `decided_at` is set on approved and reproved only (api/verification-statuses.mdx).
   */
  setStatus(publicId: string, status: Status, nowMs: number): VerificationRecord | null {
    const decidedAt = status === "approved" || status === "reproved" ? nowMs : null;
    const created = this.createdById.get(publicId);
    if (created) {
      const steps = stepsFor(status, mulberry32(hashString(`status:${publicId}:${status}`)));
      Object.assign(created, { status, steps, decidedAt, files: filesFor(steps) });
      return created;
    }
    const index = indexOfPublicId(this.dataset, publicId);
    if (index < 0) return null;
    this.dataset.status[index] = STATUSES.indexOf(status);
    this.overrides.set(publicId, { ...this.overrides.get(publicId), decidedAt });
    return this.view(index);
  }

  /** Ends the flow now: the status stays what it was (expiry is read from `expires_at`). */
  expire(publicId: string, nowMs: number): VerificationRecord | null {
    const record = this.find(publicId);
    if (!record) return null;
    this.overrides.set(publicId, { decidedAt: record.decidedAt, ...this.overrides.get(publicId), expiresAt: nowMs });
    return record;
  }

  /** Created verifications whose flow ended without an outcome and were not yet reported. */
  *newlyExpired(nowMs: number, reported: Set<string>): Generator<VerificationRecord> {
    for (const record of this.created) {
      if (reported.has(record.publicId) || record.decidedAt !== null || record.status === "review") continue;
      if (this.expiresAt(record) <= nowMs) yield record;
    }
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
    for (const i of picked) items.push(this.view(i));
    return { items, total };
  }

  /** A new verification becomes the person's most recent one: their older one leaves the list. */
  create(cpf: string, nowMs: number, request: CreationRequest, flow: Flow = "default"): VerificationRecord {
    const record = createdRecord(randomUUID(), cpf, nowMs, flow, "onboarding");
    this.byRef.set(request.refId, { publicId: record.publicId, fingerprint: request.fingerprint });
    this.refOf.set(record.publicId, request.refId);
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
  readonly ids: IdCounters;
  readonly webhooks: WebhookOutbox;
  private readonly expiredReported = new Set<string>();

  readonly stores = new Map<string, VerificationStore>();
  readonly files = new Map<string, FileEntry>();
  readonly sessions = new Map<string, KycSession>();
  readonly smsCodes = new Map<string, SmsCode>();
  /** Last code sent to each phone (digits), for GET /sandbox/sms/outbox. */
  readonly smsOutbox = new Map<string, string>();

  constructor(readonly config: SandboxConfig) {
    this.ids = new IdCounters(config.dataDir);
    this.webhooks = new WebhookOutbox(this.clock, { url: config.webhookUrl, secret: config.webhookSecret, shape: config.webhookShape });
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

  expiredReportedSet(): Set<string> {
    return this.expiredReported;
  }

  private addIntegration(integration: Integration): void {
    this.integrations.set(integration.uuid, integration);
  }

  createIntegration(account: Account, domain: string, label: string): Integration {
    const now = isoWithOffset(this.clock.now());
    const integration: Integration = {
      id: this.ids.take("integration"),
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
      personId: this.ids.take("person"),
      cpf,
      integrationUuid,
      createdAt: this.clock.now(),
    };
    this.sessions.set(session.sessionId, session);
    return session;
  }
}

/** The tenant of a core integration, as the envelope payload names it (`tenant_public_id`). */
const TENANT_OF: Record<string, string> = { int_main: "tnt_sandbox_main", int_other: "tnt_sandbox_other" };

export interface Located {
  store: VerificationStore;
  integration: string;
}

export function locate(state: SandboxState, publicId: string): (Located & { record: VerificationRecord }) | null {
  for (const [key, store] of state.stores) {
    const record = store.find(publicId);
    if (record) return { store, integration: key.split("/")[0]!, record };
  }
  return null;
}

/** Emits the events of a change (created, updated, and the status's own event when it has one). */
export function announce(state: SandboxState, located: Located, record: VerificationRecord, events: VerificationEvent[]): void {
  state.webhooks.emit(events, {
    publicId: record.publicId,
    refId: located.store.refIdOf(record.publicId),
    status: record.status,
    decidedAt: record.decidedAt,
    identityScore: record.identityScore,
    riskScore: record.riskScore,
    tenantPublicId: TENANT_OF[located.integration] ?? "tnt_sandbox",
  });
}

/** Runs on a timer: expiries of created verifications (verification.expired), then due webhook attempts. */
export async function backgroundTick(state: SandboxState): Promise<void> {
  const now = state.clock.now();
  for (const [key, store] of state.stores) {
    for (const record of [...store.newlyExpired(now, state.expiredReportedSet())]) {
      state.expiredReportedSet().add(record.publicId);
      announce(state, { store, integration: key.split("/")[0]! }, record, ["verification.expired"]);
    }
  }
  await state.webhooks.tick();
}

function storeKey(integration: string, environment: Environment): string {
  return `${integration}/${environment}`;
}
