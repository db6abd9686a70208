import "server-only";

import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { forgetInSearchIndex } from "@/lib/cases/server/search";
import { caseEntries, cases, verificationIndex } from "@/lib/cases/server/tables";
import type { Database } from "@/lib/db/client";
import { monitoringAlerts, monitoringScreenings } from "@/lib/monitoring/server/tables";
import type { ErasedKind, ErasureResult, KeptKind } from "@/lib/privacy/erasure";
import { documentCrops } from "@/lib/verifications/server/tables";
import { webhookDeliveries } from "@/lib/webhooks/server/tables";

import type { PrivacyErasureRow } from "./tables";
import { shortenDeliveryBody } from "./webhook-body";

/*
 * What a confirmed erasure erases, and what it keeps with the legal reason for each (docs/security.md#erasure). The
 * request, its four eyes and its trail are ./erasure.ts's; this runs inside the confirming transaction.
 */

/** The legal reasons for what an erasure keeps (English, as stored; the panel words them in the member's language). */
const KEPT: Record<KeptKind, string> = {
  audit_trail:
    "The audit trail's events about the person are kept: records of access and of lawful processing the company must keep (LGPD art. 16 I and art. 37; Marco Civil da Internet art. 15), and the trail stays verifiable. They hold the masked CPF and its keyed hash, never the CPF, nor any note's text.",
  case_decisions:
    "The cases' decisions and statuses (recommendation, reasons, who decided and when, the provider's final status) are kept as the record of the company's legal and regulatory obligations (LGPD art. 16 I and art. 7 II; anti-money-laundering record keeping, Lei 9.613/98 art. 10). Their free text is erased.",
  monitoring_alerts:
    "The ongoing screening's alerts (what changed, when, and the outcome a member recorded) are kept with the cases' decisions under the same anti-money-laundering record keeping (Lei 9.613/98 art. 10 and 11); they hold the masked CPF, list names and yes/no facts, no free text. The person is no longer screened.",
  verification_events:
    "The verifications' status events (event, status, scores, ref_id, time) are kept with the cases they document (the same obligations); they hold no free text.",
  provider_data:
    "The verification data itself (documents, images, scores, personal data) is held by the verification service, not by the dashboard: the company must ask the provider to erase it.",
};

/** The erasure itself, inside the confirming transaction. */
export async function erase(
  tx: Database,
  { id, cpfHashes: hashes }: Pick<PrivacyErasureRow, "id" | "cpfHashes">,
  confirmer: string,
  now: Date,
): Promise<{ result: ErasureResult; casePublicIds: string[] }> {
  const indexed = await tx
    .select({ publicId: verificationIndex.publicId })
    .from(verificationIndex)
    .where(inArray(verificationIndex.cpfHash, hashes));
  const publicIds = [...new Set(indexed.map((entry) => entry.publicId))];
  const erased: Record<ErasedKind, number> = {
    case_texts: 0,
    outcome_comments: 0,
    person_names: 0,
    document_crops: 0,
    index_entries: 0,
    webhook_bodies: 0,
    screenings: 0,
  };
  let caseRows: Array<{ id: string; publicId: string }> = [];
  if (publicIds.length > 0) {
    caseRows = await tx.select({ id: cases.id, publicId: cases.publicId }).from(cases).where(inArray(cases.publicId, publicIds));
    const caseIds = caseRows.map((row) => row.id);
    if (caseIds.length > 0) {
      // The entries stay (who did what, when, of which kind): the timeline shows a tombstone for the text.
      erased.case_texts = (
        await tx
          .update(caseEntries)
          .set({ text: null, redactedAt: now, redactedBy: confirmer })
          .where(and(inArray(caseEntries.caseId, caseIds), isNotNull(caseEntries.text)))
          .returning({ id: caseEntries.id })
      ).length;
      const [counted] = await tx
        .select({
          comments: sql<number>`(count(*) filter (where ${cases.outcomeComment} is not null))::int`,
          names: sql<number>`(count(*) filter (where ${cases.personName} is not null))::int`,
        })
        .from(cases)
        .where(inArray(cases.id, caseIds));
      erased.outcome_comments = counted!.comments;
      erased.person_names = counted!.names;
      // `erased_at` also keeps the sync from writing the name again (lib/cases/server/store.ts).
      await tx.update(cases).set({ outcomeComment: null, personName: null, erasedAt: now }).where(inArray(cases.id, caseIds));
    }
    erased.document_crops = (
      await tx.delete(documentCrops).where(inArray(documentCrops.publicId, publicIds)).returning({ id: documentCrops.publicId })
    ).length;
    erased.webhook_bodies = await shortenBodies(tx, publicIds);
  }
  // The facts the ongoing screening compares, and its keyed CPF hash: the person is no longer screened (the
  // screening skips erased cases, lib/monitoring/server/screening.ts), so nothing is left to compare them with.
  erased.screenings = (
    await tx
      .delete(monitoringScreenings)
      .where(
        publicIds.length > 0
          ? or(inArray(monitoringScreenings.publicId, publicIds), inArray(monitoringScreenings.cpfHash, hashes))
          : inArray(monitoringScreenings.cpfHash, hashes),
      )
      .returning({ id: monitoringScreenings.publicId })
  ).length;
  const [alerts] =
    publicIds.length > 0
      ? await tx
          .select({ count: sql<number>`count(*)::int` })
          .from(monitoringAlerts)
          .where(inArray(monitoringAlerts.publicId, publicIds))
      : [{ count: 0 }];
  erased.index_entries = (
    await tx.delete(verificationIndex).where(inArray(verificationIndex.cpfHash, hashes)).returning({ id: verificationIndex.publicId })
  ).length;
  // Remembered (hashes only), so no later read, sync or re-keying indexes the person again.
  await forgetInSearchIndex(tx, hashes, id, now);

  const [audit] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(inArray(auditEvents.targetHash, hashes));
  const casesKept = caseRows.length;
  const result: ErasureResult = {
    verifications: publicIds.length,
    cases: casesKept,
    erased,
    kept: [
      { kind: "audit_trail", count: audit?.count ?? 0, reason: KEPT.audit_trail },
      { kind: "case_decisions", count: casesKept, reason: KEPT.case_decisions },
      { kind: "monitoring_alerts", count: alerts?.count ?? 0, reason: KEPT.monitoring_alerts },
      { kind: "verification_events", count: null, reason: KEPT.verification_events },
      { kind: "provider_data", count: null, reason: KEPT.provider_data },
    ],
  };
  return { result, casePublicIds: caseRows.map((row) => row.publicId) };
}

/** Deliveries about these verifications, whatever their state, cut as the retention pruner cuts them. */
async function shortenBodies(tx: Database, publicIds: string[]): Promise<number> {
  const rows = await tx
    .select({ id: webhookDeliveries.id, body: webhookDeliveries.body })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.publicId, publicIds));
  let shortened = 0;
  for (const row of rows) {
    const short = shortenDeliveryBody(row.body);
    if (short === row.body) continue;
    await tx.update(webhookDeliveries).set({ body: short }).where(eq(webhookDeliveries.id, row.id));
    shortened += 1;
  }
  return shortened;
}
