/*
 * Texts sealed at rest under the data key ring (lib/keys/ring.ts) that belong to records kept for years, besides the
 * case texts (lib/cases/server/sealed-text.ts): a suspicious-activity report's summary and a titular request's contact
 * and answer, each kept five years (lib/privacy/server/policies.ts). A data key can leave the ring only once nothing is
 * sealed under it, so the re-seal job (lib/cases/server/text-reseal.ts) moves each of these, by the table and column
 * named here, to the ring's current key; the writers seal and open with the purpose named here. Each was sealed from
 * its column's first write: a value without an envelope is never text the dashboard wrote.
 *
 * Every `*_sealed` column of the schema is here, or named in lib/keys/sealed-records.test.ts with what moves it (the
 * connections' secrets move on their first read after a restart).
 */

export interface SealedRecordText {
  table: string;
  /** The table's key column (a UUID). */
  id: string;
  column: string;
  purpose: string;
}

export const SEALED_RECORD_TEXTS = {
  coafSummary: { table: "suspicious_activity_reports", id: "id", column: "summary_sealed", purpose: "coaf-report-summary" },
  privacyRequestContact: { table: "privacy_requests", id: "id", column: "contact_sealed", purpose: "privacy-request-contact" },
  privacyRequestAnswer: { table: "privacy_requests", id: "id", column: "answer_sealed", purpose: "privacy-request-answer" },
} as const satisfies Record<string, SealedRecordText>;
