/*
 * The verifications: one store per integration and environment (a generated dataset plus the
 * verifications created through the API), and the collection of the three stores the sandbox serves.
 */
import { randomUUID } from "node:crypto";

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

/**
 * How long a verification's flow stays open (`expires_at`). ASSUMPTION (docs/assumptions.md#expiry): the provider's material says only
 * "valid for a limited time" (api/verifications.mdx) without a figure.
 */
export const VERIFICATION_TTL_MS = 24 * 3600_000;

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

/**
 * The review sub-states (Legitimuz-Tech/legitimuz-core-documentation api/verification-statuses.mdx at afcc2cb: while
 * the status is `review`, the case is `open`, `assigned` or `decided`). Sandbox assumption: the page names no field;
 * the sandbox sends `review_state`, `open` unless the control route says otherwise.
 */
export const REVIEW_STATES = ["open", "assigned", "decided"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export class VerificationStore {
  private readonly superseded: Uint8Array;
  private readonly byRef = new Map<string, { publicId: string; fingerprint: string }>();
  private readonly refOf = new Map<string, string>();
  private readonly overrides = new Map<string, Override>();
  private readonly reviewStates = new Map<string, ReviewState>();
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

  /** The review sub-state of a verification in review (REVIEW_STATES); null in any other status. */
  reviewStateOf(record: VerificationRecord): ReviewState | null {
    return record.status === "review" ? (this.reviewStates.get(record.publicId) ?? "open") : null;
  }

  /** ASSUMPTION (docs/assumptions.md#expiry): a flow stays open VERIFICATION_TTL_MS after creation. */
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
  setStatus(publicId: string, status: Status, nowMs: number, reviewState?: ReviewState): VerificationRecord | null {
    const decidedAt = status === "approved" || status === "reproved" ? nowMs : null;
    // Sandbox assumption: a verification moved back to the person (not_opened, started) has its flow open again for
    // another VERIFICATION_TTL_MS, rather than being already past an old `expires_at`.
    const reopened = status === "not_opened" || status === "started" ? { expiresAt: nowMs + VERIFICATION_TTL_MS } : {};
    // Entering review starts the sub-states at `open`; a sub-state given with the status replaces it.
    if (status !== "review") this.reviewStates.delete(publicId);
    else if (reviewState) this.reviewStates.set(publicId, reviewState);
    else if (this.find(publicId)?.status !== "review") this.reviewStates.delete(publicId);
    const created = this.createdById.get(publicId);
    if (created) {
      const steps = stepsFor(status, mulberry32(hashString(`status:${publicId}:${status}`)));
      Object.assign(created, { status, steps, decidedAt, files: filesFor(steps) });
      if ("expiresAt" in reopened) this.overrides.set(publicId, { decidedAt, ...this.overrides.get(publicId), ...reopened });
      return created;
    }
    const index = indexOfPublicId(this.dataset, publicId);
    if (index < 0) return null;
    this.dataset.status[index] = STATUSES.indexOf(status);
    this.overrides.set(publicId, { ...this.overrides.get(publicId), decidedAt, ...reopened });
    return this.view(index);
  }

  /**
   * Moves a verification created here back in time (control route): a test's own verification "created ten days
   * ago", so a rule on age matches it and nothing another test made. Generated verifications keep their dates.
   */
  backdate(publicId: string, createdAt: number): VerificationRecord | null {
    const created = this.createdById.get(publicId);
    if (!created) return null;
    // Its flow keeps its own end: an older creation does not expire it.
    this.overrides.set(publicId, { decidedAt: created.decidedAt, ...this.overrides.get(publicId), expiresAt: this.expiresAt(created) });
    created.createdAt = createdAt;
    return created;
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

export interface Located {
  store: VerificationStore;
  integration: string;
}

/** The three datasets: int_main/sandbox (SANDBOX_VERIFICATIONS), int_main/production and int_other/sandbox (50 each). */
export class VerificationStores {
  private readonly stores = new Map<string, VerificationStore>();

  constructor(settings: { seed: number; verifications: number }, startedAt: number) {
    const specs: DatasetSpec[] = [
      { index: 0, integration: "int_main", environment: "sandbox", size: settings.verifications, cpfStart: 0 },
      { index: 1, integration: "int_main", environment: "production", size: 50, cpfStart: settings.verifications },
      { index: 2, integration: "int_other", environment: "sandbox", size: 50, cpfStart: settings.verifications + 50 },
    ];
    for (const spec of specs) {
      this.stores.set(storeKey(spec.integration, spec.environment), new VerificationStore(generateDataset(settings.seed, spec, startedAt)));
    }
  }

  get(integration: string, environment: Environment): VerificationStore | undefined {
    return this.stores.get(storeKey(integration, environment));
  }

  /** Every store with the integration it belongs to. */
  *entries(): Generator<Located> {
    for (const [key, store] of this.stores) yield { store, integration: key.split("/")[0]! };
  }

  /** The verification with this public id in any store. */
  locate(publicId: string): (Located & { record: VerificationRecord }) | null {
    for (const located of this.entries()) {
      const record = located.store.find(publicId);
      if (record) return { ...located, record };
    }
    return null;
  }
}

function storeKey(integration: string, environment: Environment): string {
  return `${integration}/${environment}`;
}
