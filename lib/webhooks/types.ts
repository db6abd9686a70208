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
