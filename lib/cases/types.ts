import type { CasePriority } from "./priority";
import type { Queue, Recommendation } from "./rules";
import type { TakeMode } from "./take-mode";

// What the case API answers (shared with the pages). Dates are ISO strings so they survive JSON and hydration.

export interface StaffRef {
  id: string;
  email: string;
  name: string;
}

export type OutcomeState = "pending_confirmation" | "confirmed" | "rejected" | "recorded";

export interface CaseSummary {
  publicId: string;
  /** The routing queue the case is in (issue 23). */
  queueId: string;
  status: "open" | "closed";
  upstreamStatus: string;
  flags: string[];
  /** Computed when listed, from the flags, the time left to due and a re-verification waited for (lib/cases/priority.ts). */
  priority: CasePriority;
  documentMasked: string | null;
  /** When the case's clock started: the verification's creation, or its return to review (a reopened case). */
  openedAt: string;
  /** The verification's creation, as the upstream said it. */
  verificationCreatedAt: string | null;
  dueAt: string;
  /** When the case passed its due time and was escalated (its queue's leads told); null until then. */
  escalatedAt: string | null;
  closedAt: string | null;
  finalStatus: string | null;
  /**
   * Why a closed case closed: `decided` (the provider's final status) or `expired` (the person's flow ended without an
   * outcome); null while open, and on cases closed before the reason was kept.
   */
  closedReason: "decided" | "expired" | null;
  /** The provider's own review sub-state (`open`, `assigned`, `decided`) as last read, or null when it said none. */
  upstreamReviewState: string | null;
  disagreement: boolean;
  assignee: StaffRef | null;
  recommendation: Recommendation | null;
  outcomeState: OutcomeState | null;
  /** Queue rows only: the same person (CPF hash in the search index) has another open case. */
  otherOpenCase?: boolean;
  /**
   * Queue rows only: the person's name, masked ("M*** d*** S***") for a member without `personal_data.unmasked`
   * (or as the service masked it); null when the case knows none.
   */
  personName?: string | null;
}

export interface CaseQueueResponse {
  queue: Queue;
  items: CaseSummary[];
  total: number;
  page: number;
  perPage: number;
  /** The team's live routing queues (id and name), for the queue selector. */
  queues?: Array<{ id: string; name: string }>;
  /** Count of each queue for this user, for the tabs. */
  counts: Record<Queue, number>;
}

export type CaseEntryKind =
  | "opened"
  | "assigned"
  | "unassigned"
  | "note"
  | "outcome"
  | "escalated"
  | "confirmation"
  | "closed"
  | "reopened"
  | "moved"
  | "reverification_requested"
  // A note on one of the case's monitoring alerts (lib/monitoring/server/notes.ts; `details.alertId`).
  | "monitoring_note";

/**
 * Free text that is stored (sealed at rest) but cannot be read: sealed under a key the data key ring no longer
 * holds (`retired`), or altered. Shown as a placeholder naming the key, never guessed at.
 */
export interface UnreadableText {
  keyId: string;
  retired: boolean;
  /**
   * Stored without an envelope after every clear text from before sealing was sealed: nothing the dashboard
   * wrote, so never shown as the words (`keyId` is empty).
   */
  unsealed?: true;
}

/** An erasure at the titular's request removed this text: who confirmed it, and when. */
export interface Redaction {
  by: StaffRef | null;
  at: string;
}

export interface CaseEntry {
  id: number;
  at: string;
  kind: CaseEntryKind;
  actor: StaffRef | null;
  /** A note's or comment's text, plain: always rendered as text, never as markup. */
  text: string | null;
  /** Set when the entry's text is stored but cannot be opened (then `text` is null). */
  unreadable: UnreadableText | null;
  /** Set when the text was erased at the titular's request (then `text` is null): a tombstone. */
  redacted: Redaction | null;
  details: Record<string, unknown>;
}

/** An upstream event of the verification, as the webhooks store keeps it. */
export interface UpstreamEventEntry {
  at: string;
  event: string;
  status: string | null;
}

export interface CaseDetail extends CaseSummary {
  reasons: string[];
  outcomeComment: string | null;
  /** Set when the outcome comment is stored but cannot be opened (then `outcomeComment` is null). */
  outcomeCommentUnreadable: UnreadableText | null;
  /** When an erasure at the titular's request cleared the case's free text (notes, comments), or null. */
  erasedAt: string | null;
  outcomeBy: StaffRef | null;
  outcomeAt: string | null;
  confirmedBy: StaffRef | null;
  confirmedAt: string | null;
  /** When the dashboard first saw the case (its "opened" entry), shown apart from the case's age. */
  firstSeenAt: string | null;
  /** The caller's reference of the verification, when the search index knows it (a decision template's `{ref_id}`). */
  refId?: string | null;
  needsConfirmation: boolean;
  entries: CaseEntry[];
  upstreamEvents: UpstreamEventEntry[];
  /** Neighbours in the open queue (oldest first), for next/previous from the detail. */
  previous: string | null;
  next: string | null;
  /** Re-verifications asked from this case, oldest first. */
  reverifications?: Reverification[];
  /** The re-verification the case waits for (the latest, while the person has not finished it), or null. */
  waitingForReverification?: string | null;
}

/** A new verification asked from a case for the same document (POST /api/cases/{publicId}/reverification). */
export interface Reverification {
  publicId: string;
  refId: string;
  requestedAt: string;
  requestedBy: StaffRef | null;
  /** The latest status the dashboard knows (its case, else its latest event); null until one arrives. */
  status: string | null;
}

/** The answer to a re-verification: the new verification and where the person opens it. */
export interface ReverificationResponse {
  publicId: string;
  refId: string;
  /** The widget address to hand to the person (never stored), or null when the service gave none. */
  url: string | null;
  /** The address as an SVG QR code in a data URL, or null without an address. */
  qrCode: string | null;
}

export interface CaseDetailResponse {
  /** null when no case exists for this verification (it never needed a person). */
  case: CaseDetail | null;
  /** When the viewer takes an unassigned case (the team's setting); absent from older answers: on_decision. */
  takeMode?: TakeMode;
}

/** GET /api/cases/reasons: the catalogue, labelled in the caller's language. */
export interface ReasonCatalogue {
  reasons: Array<{ code: string; label: string; recommendations: Recommendation[] }>;
}

export interface SearchHit {
  publicId: string;
  refId: string | null;
  documentMasked: string | null;
  caseStatus: "open" | "closed" | null;
}

/**
 * Where the search's index learns a verification: created here, read with the CPF unmasked (a page, a list
 * page or an export, when the service key gives unmasked data), or named in one of the service's events (read
 * once then, so its CPF is learned when unmasked).
 */
export type SearchSource = "created_here" | "unmasked_read" | "event";

/** Said with an empty answer, so the UI can explain what the search can find and what to try instead. */
export interface SearchMiss {
  by: "cpf" | "ref_id";
  /** What the index holds for this kind of search. */
  sources: SearchSource[];
  /** The member may run a CPF lookup (`lookups.run`): offered for a CPF search that found nothing. */
  cpfLookup: boolean;
}

export interface SearchResponse {
  hits: SearchHit[];
  /** Present only when nothing was found. */
  miss?: SearchMiss;
}

/** GET/PUT /api/cases/routing: the team's queues, rules in order and auto-assignment (issue 23). */
export interface RoutingConfig {
  autoAssign: boolean;
  capacity: number;
  queues: Array<{ id: string; name: string; members: Array<{ userId: string; lead: boolean }> }>;
  rules: Array<{ id: string; queueId: string; conditions: import("./routing-rules").RoutingConditions }>;
  /** Staff who can be made members or assignees, with whether they are away or disabled. */
  staff: Array<{ id: string; email: string; name: string; away: boolean; disabled: boolean }>;
}

/** POST /api/cases/bulk: one result per case, in the order asked. */
export interface BulkResult {
  results: Array<{ publicId: string; ok: boolean; code?: string; error?: string }>;
}
