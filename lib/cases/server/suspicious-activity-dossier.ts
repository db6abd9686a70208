import "server-only";

import { audited } from "@/lib/audit-trail/server";
import type { SuspiciousActivityDto } from "@/lib/cases/coaf";
import type { CaseDetail } from "@/lib/cases/types";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";
import { coreClient, type CoreClient } from "@/lib/upstream/core";
import { verificationFor } from "@/lib/upstream/model/masking";
import type { Verification } from "@/lib/upstream/model/verification";

import { getCase } from "./detail";
import { indexedCpfHash, samePersonRows } from "./related";
import { connectionHere } from "./scope";
import { findReport, type CoafContext } from "./suspicious-activity";

/*
 * The dossier of a suspicious-activity report (GET /api/suspicious-activity/{id}/dossier): what a compliance officer
 * files at SISCOAF or hands to an examiner, built from the report and its case. The report itself; the verification
 * as the service gives it, read once (the case page reads it once too) and masked as for a member without
 * `personal_data.unmasked` (never the full CPF), without images or biometrics (steps keep their state and scores,
 * never a picture); the decisions with their reasons; the case's history; the other verifications of the same
 * person the search index knows (by the CPF's keyed hash, no call). The export is audited as `coaf.dossier_export`
 * on the report, never on the verification or the person (no tipping off, Lei 9.613/98 art. 11 §2).
 */

export interface DossierVerification {
  publicId: string;
  /** Always masked. */
  document: string;
  status: string;
  flow: string | null;
  journey: string | null;
  createdAt: string | null;
  decidedAt: string | null;
  identityScore: number | null;
  riskScore: number | null;
  pep: boolean | null;
  pepOrigin: string | null;
  restrictiveLists: Array<{ name: string | null; source: string | null; listedAt: string | null }>;
  steps: Array<{ name: string; state: string | null; score: number | null; similarity: number | null; notices: string[] }>;
}

export interface SuspiciousActivityDossier {
  generatedAt: string;
  report: SuspiciousActivityDto;
  case: {
    publicId: string;
    refId: string | null;
    documentMasked: string | null;
    status: string;
    upstreamStatus: string | null;
    openedAt: string | null;
    flags: string[];
  } | null;
  /** null when the service could not be read (`verificationError` says why). */
  verification: DossierVerification | null;
  verificationError: string | null;
  decisions: Array<{
    kind: "outcome" | "confirmation";
    agree: boolean | null;
    recommendation: string | null;
    reasons: string[];
    comment: string | null;
    by: string | null;
    at: string | null;
  }>;
  timeline: Array<{ at: string; kind: string; actor: string | null; text: string | null }>;
  samePerson: Array<{
    publicId: string;
    caseStatus: string | null;
    upstreamStatus: string | null;
    recommendation: string | null;
    outcomeState: string | null;
  }>;
}

export interface DossierDeps {
  /** The service's client (this connection's by default). */
  client?: CoreClient;
  now?: Date;
}

/** The verification as the dossier keeps it: masked, no images, the facts an examiner reads. */
export function dossierVerification(raw: Verification): DossierVerification {
  // Masked as for a member without the unmasked permission: the document and the person's free text.
  const verification = verificationFor(raw, false);
  return {
    publicId: verification.publicId,
    document: verification.document,
    status: verification.status,
    flow: verification.flow ?? null,
    journey: verification.journey ?? null,
    createdAt: verification.createdAt ?? null,
    decidedAt: verification.decidedAt ?? null,
    identityScore: verification.identityScore,
    riskScore: verification.riskScore,
    pep: verification.person.pep ?? null,
    pepOrigin: verification.pepOrigin,
    restrictiveLists: verification.restrictiveLists.map((entry) => ({
      name: entry.name ?? null,
      source: entry.source ?? null,
      listedAt: entry.listedAt ?? null,
    })),
    steps: verification.steps.map((step) => ({
      name: step.name,
      state: step.state,
      score: step.score ?? null,
      similarity: step.similarity ?? null,
      notices: step.notices.map((notice) => [notice.code, notice.withheld ? null : notice.message].filter(Boolean).join(": ")),
    })),
  };
}

async function readVerification(publicId: string, client: CoreClient | undefined) {
  try {
    return { verification: dossierVerification(await (client ?? coreClient()).getVerification(publicId)), error: null };
  } catch (error) {
    const code = error instanceof AppError ? error.code : error instanceof Error && "kind" in error ? String(error.kind) : "unavailable";
    return { verification: null, error: code };
  }
}

const who = (ref: { email: string; name?: string | null } | null) => (ref ? ref.email : null);

function decisionsOf(detail: CaseDetail): SuspiciousActivityDossier["decisions"] {
  const decisions: SuspiciousActivityDossier["decisions"] = [];
  for (const entry of detail.entries) {
    if (entry.kind !== "outcome" && entry.kind !== "confirmation") continue;
    const details = entry.details;
    decisions.push({
      kind: entry.kind === "outcome" ? "outcome" : "confirmation",
      agree: typeof details.agree === "boolean" ? details.agree : null,
      recommendation: typeof details.recommendation === "string" ? details.recommendation : null,
      reasons: Array.isArray(details.reasons) ? details.reasons.filter((reason): reason is string => typeof reason === "string") : [],
      comment: entry.text,
      by: who(entry.actor),
      at: entry.at,
    });
  }
  if (decisions.length === 0 && detail.recommendation) {
    decisions.push({
      kind: "outcome",
      agree: null,
      recommendation: detail.recommendation,
      reasons: detail.reasons,
      comment: detail.outcomeComment,
      by: who(detail.outcomeBy),
      at: detail.outcomeAt,
    });
  }
  return decisions;
}

async function build(db: Database, report: SuspiciousActivityDto, deps: DossierDeps): Promise<SuspiciousActivityDossier> {
  const detail = await getCase(db, connectionHere(), report.casePublicId);
  const { verification, error } = await readVerification(report.casePublicId, deps.client);
  const hash = await indexedCpfHash(db, report.casePublicId);
  const related = hash ? await samePersonRows(db, report.casePublicId, hash) : [];
  return {
    generatedAt: (deps.now ?? new Date()).toISOString(),
    report,
    case: detail
      ? {
          publicId: detail.publicId,
          refId: detail.refId ?? null,
          documentMasked: detail.documentMasked,
          status: detail.status,
          upstreamStatus: detail.upstreamStatus,
          openedAt: detail.firstSeenAt,
          flags: detail.flags,
        }
      : null,
    verification,
    verificationError: error,
    decisions: detail ? decisionsOf(detail) : [],
    timeline: (detail?.entries ?? []).map((entry) => ({
      at: entry.at,
      kind: entry.kind,
      actor: who(entry.actor),
      text: entry.redacted ? null : entry.text,
    })),
    samePerson: related.map((row) => ({
      publicId: row.publicId,
      caseStatus: row.caseStatus,
      upstreamStatus: row.upstreamStatus,
      recommendation: row.recommendation,
      outcomeState: row.outcomeState,
    })),
  };
}

/** The dossier of report `id` (this connection's), its export audited on the report; 404 for no such report. */
export async function reportDossier(
  db: Database,
  context: CoafContext,
  id: string,
  format: "json" | "pdf",
  deps: DossierDeps = {},
): Promise<SuspiciousActivityDossier> {
  const report = await findReport(db, id);
  if (!report) throw new AppError("not_found", "No suspicious-activity report has this id.");
  return audited(context, { action: "coaf.dossier_export", target: { type: "suspicious_activity_report", id }, details: { format } }, () =>
    build(db, report, deps),
  );
}
