import "server-only";

import { auditedAction, cpfHash, failureOf, recordEvent, type RequestContext } from "@/lib/audit-trail/server";
import { hasPermission, type PermissionHolder } from "@/lib/auth/permissions";
import { findCaseRow } from "@/lib/cases/server/detail";
import { linkReverification, reverificationCount } from "@/lib/cases/server/related";
import { connectionHere } from "@/lib/cases/server/scope";
import type { ReverificationResponse } from "@/lib/cases/types";
import type { ReverificationInput } from "@/lib/cases/validation";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";
import { AppError } from "@/lib/shared/errors";
import { qrCodeDataUrl } from "@/lib/shared/qr-code";
import type { Verification } from "@/lib/upstream/model/verification";
import { isPublicId } from "@/lib/upstream/model/verification-query";
import { DEFAULT_SCHEMA_VERSION } from "@/lib/verifications/rules";

import { createVerificationWithEntry } from "./create";
import { readVerification } from "./detail";
import { verificationCpf } from "./document-cpf";
import { knownVerificationsOf } from "./known";
import type { VerificationDeps } from "./list";

/*
 * Re-verification from a case (POST /api/cases/:publicId/reverification): the case's assignee (or a holder of
 * cases.assign) asks the person to verify again. A new verification is created upstream for the same document,
 * through the one creation path (./create.ts, which also indexes it, so the same-person panel finds it), with a
 * derived ref_id `<original ref_id or public id>-rv<n>` and the original's flow (`flowOf`); it is linked to the case (case_reverifications, and a
 * `reverification_requested` entry on the timeline), and the widget address goes back to the analyst with a QR
 * code, never stored, logged or audited (like a KYC session's: lib/kyc/server/kyc.ts).
 *
 * The document: the one the service shows for this verification when it is unmasked (the API key's unmasked
 * permission); otherwise the analyst types it, and it must match this verification's (its CPF hash in the
 * search index, else the digits its masked form shows) before anything is created: 400 on `document.number`.
 */

const ACTION = "case.reverification";
/** The creation form's limit on a ref_id (lib/verifications/rules.ts). */
export const REF_ID_MAX = 128;

export interface ReverificationActor extends PermissionHolder {
  id: string;
  email: string;
}

/** `<base>-rv<n>`, the base cut so the whole stays within the ref_id limit. */
export function derivedRefId(base: string, round: number): string {
  const suffix = `-rv${round}`;
  return `${base.slice(0, REF_ID_MAX - suffix.length)}${suffix}`;
}

/** The document to send: the service's when unmasked, else the typed one once it matches this verification's. */
async function documentFor(
  db: Database,
  verification: Verification,
  typed: ReverificationInput["document"],
): Promise<{ type: "cpf"; number: string }> {
  return { type: "cpf", number: await verificationCpf(db, verification, typed?.number, "document.number") };
}

/**
 * The original's flow, so the person goes through the same steps again: its `flow_public_id` when the read
 * verification carries one, else its `flow` (ASSUMPTION (docs/assumptions.md#creation-flow): every creation example
 * sends `flow_public_id`, legitimuz-examples pocs/express-backend/server.ts at 7780eac, but no page shows it on a
 * read verification; the value the list filters on is taken to name the flow as creation takes it, as the
 * sandbox's do). Nothing when neither is an id: the
 * integration's default flow then applies, as before.
 */
function flowOf(verification: Pick<Verification, "flowPublicId" | "flow">): { flowPublicId?: string } {
  const flow = [verification.flowPublicId, verification.flow].find((value) => isPublicId(value));
  return flow ? { flowPublicId: flow } : {};
}

async function refuse(context: RequestContext, publicId: string, error: AppError): Promise<never> {
  const { outcome, reason } = failureOf(error);
  await recordEvent({ ...context, action: ACTION, target: { type: "verification", id: publicId }, outcome, details: { reason } }).catch(
    (auditError: unknown) => log.error("audit_failed", { action: ACTION, error: auditError }),
  );
  throw error;
}

export async function requestReverification(
  db: Database,
  context: RequestContext,
  actor: ReverificationActor,
  publicId: string,
  input: ReverificationInput,
  deps: VerificationDeps = {},
): Promise<ReverificationResponse> {
  const row = await findCaseRow(db, publicId, connectionHere());
  if (!row) return refuse(context, publicId, new AppError("not_found", "No case exists for this verification."));
  if (row.status !== "open") return refuse(context, publicId, new AppError("conflict", "This case is closed."));
  if (row.assigneeId !== actor.id && !hasPermission(actor, "cases.assign")) {
    return refuse(
      context,
      publicId,
      new AppError("forbidden", "Only the case's assignee, or someone holding cases.assign, asks for a re-verification."),
    );
  }
  // The audited detail read (verification.view): the document as the service shows it.
  const verification = await readVerification(context, publicId, deps);
  const document = await documentFor(db, verification, input.document).catch((error: unknown) =>
    error instanceof AppError ? refuse(context, publicId, error) : Promise.reject(error),
  );
  const round = (await reverificationCount(db, row.id)) + 1;
  const base = (await knownVerificationsOf(db, [publicId])).get(publicId)?.refId ?? publicId;
  const refId = derivedRefId(base, round);
  const created = await auditedAction(
    context,
    {
      action: ACTION,
      target: { type: "verification", id: publicId },
      // The new verification's id is on the case's timeline (the trail refuses UUIDs in details): `round` ties them.
      details: { round },
      subjectCpfHash: cpfHash(document.number),
    },
    async () => {
      const { response, entryUrl } = await createVerificationWithEntry(
        { schemaVersion: DEFAULT_SCHEMA_VERSION, refId, document, ...flowOf(verification) },
        deps,
      );
      const newId = response.created.publicId;
      if (!newId)
        throw new AppError("internal", "The service created the verification without saying its id; it could not be linked to the case.");
      await linkReverification(db, { caseId: row.id, publicId: newId, refId: response.created.refId ?? refId, actorId: actor.id });
      return { publicId: newId, refId: response.created.refId ?? refId, entryUrl };
    },
  );
  return {
    publicId: created.publicId,
    refId: created.refId,
    url: created.entryUrl,
    qrCode: created.entryUrl ? await qrCodeDataUrl(created.entryUrl) : null,
  };
}
