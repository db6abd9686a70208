// Shared (no server imports): the verification events as the live-update poll and the event history read them.

export interface VerificationEventItem {
  id: number;
  publicId: string;
  event: string;
  status: string | null;
  occurredAt: string;
  recordedAt: string;
}

export interface ChangeFeed {
  /** Pass back as `after` next time. */
  cursor: number;
  changes: VerificationEventItem[];
  /** More than `limit` changes arrived: the page should simply reload its data. */
  truncated: boolean;
}
