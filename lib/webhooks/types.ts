// Shared (no server imports): the verification events as the live-update poll and the event history read them.

export interface VerificationEventItem {
  id: number;
  publicId: string;
  event: string;
  status: string | null;
  occurredAt: string;
  recordedAt: string;
  /** What the event said besides its status (null when it did not): the documentation's flat payload carries the scores. */
  identityScore: number | null;
  fraudScore: number | null;
  /** The decision time the examples' envelope carries. */
  decidedAt: string | null;
}

export interface ChangeFeed {
  /** Pass back as `after` next time. */
  cursor: number;
  changes: VerificationEventItem[];
  /** More than `limit` changes arrived: the page should simply reload its data. */
  truncated: boolean;
}

/** GET /api/webhooks/health: how the service's deliveries fare, for a connection's admins (lib/webhooks/server/health.ts). */
export interface DeliveryHealth {
  /** The start of the window the counts cover (the last 24 hours). */
  since: string;
  /** Deliveries received in the window, by state. */
  counts: Record<"pending" | "processed" | "ignored" | "failed" | "unparseable", number>;
  /** Deliveries still waiting after 15 minutes. */
  stuck: number;
  /** Verifications created here in the window, over 15 minutes before now, after the last delivery arrived: each should have brought its `verification.created`. */
  unannounced: number;
  lastReceivedAt: string | null;
  /** Why deliveries are failing, empty when they are not: given up, unreadable bodies, stuck waiting, or stopped. */
  failing: Array<"failed" | "unparseable" | "stuck" | "stopped">;
  /** The latest 20: when, which event, its state and attempts, and the connection it was routed to (null: none yet). */
  recent: Array<{ receivedAt: string; event: string; state: string; attempts: number; connectionId: string | null }>;
}
