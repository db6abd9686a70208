import "server-only";

import { and, arrayOverlaps, asc, desc, eq, gte, inArray, isNull, lt, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";

import { failureOf, recordEvent } from "@/lib/audit-trail/server";
import type { RequestContext } from "@/lib/audit-trail/server/context";
import { cpfHashes, maskCpf } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { staffUsers } from "@/lib/auth/server/tables";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { isSealedText, openText, sealedTextKeyId, sealText } from "@/lib/keys/ring";
import { SEALED_RECORD_TEXTS } from "@/lib/keys/sealed-records";
import { log } from "@/lib/log";
import {
  daysLeft,
  dueAt,
  isLate,
  maskContact,
  type PrivacyRequestDto,
  type PrivacyRequestListResponse,
  type PrivacyRequestMember,
  type RequestChannel,
  type RequestKind,
} from "@/lib/privacy/requests";
import type { CloseRequestInput, PrivacyRequestInput } from "@/lib/privacy/validation";
import { AppError } from "@/lib/shared/errors";

import { privacyErasures, privacyRequests, type PrivacyRequestRow } from "./tables";

/*
 * Titular requests on a clock (LGPD art. 18 and 19; ANPD resolution 18/2024). A member holding `privacy.requests`
 * registers what the titular asked (openRequest), due PRIVACY_REQUEST_DUE_DAYS after its receipt; the privacy page
 * lists the open ones by days left, late first (listRequests); a request is answered with the titular report, an
 * erasure or a written answer alone, and closed with what was sent (closeRequest). Late requests are told to the
 * privacy officers once (./late-requests.ts). Every step is on the audit trail, the request as its target and the
 * person's first CPF hash as its subject.
 *
 * The request knows the person by the keyed hashes of their CPF (one per audit key) and its masked form, never by the
 * CPF. The contact and the written answer may name the person: sealed under the data key ring like case notes
 * (lib/keys/ring.ts), the contact's masked form kept beside it for members without `personal_data.unmasked`.
 * A request lives weeks, not years, so no re-seal job follows key rotations: a text under a retired key reads as a
 * placeholder, the request itself still works.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CLOSED_LIMIT = 20;
const CONTACT_PURPOSE = SEALED_RECORD_TEXTS.privacyRequestContact.purpose;
const ANSWER_PURPOSE = SEALED_RECORD_TEXTS.privacyRequestAnswer.purpose;

export interface PrivacyRequestContext extends RequestContext {
  actor: { id: string; email: string };
}

/** Who reads: the contact is shown as given only to a member holding `personal_data.unmasked`. */
export interface PrivacyRequestViewer {
  id: string;
  unmasked: boolean;
}

class RequestNotFoundError extends AppError {
  constructor() {
    super("not_found", "No titular request has this id.");
  }
}

function seal(purpose: string, text: string): string {
  return sealText(config().secrets.dataEncryption, purpose, text);
}

function open(purpose: string, stored: string): string {
  if (!isSealedText(stored)) return stored;
  return openText(config().secrets.dataEncryption, purpose, stored) ?? `[sealed under retired key ${sealedTextKeyId(stored)}]`;
}

/** What every event of a request names: who acted, from where, the request and its person (first CPF hash). */
export function requestEvent(context: RequestContext, request: { id: string; cpfHashes: string[] }) {
  return {
    actor: context.actor,
    ip: context.ip,
    pageView: context.pageView,
    target: { type: "privacy_request", id: request.id } as const,
    subjectCpfHash: request.cpfHashes[0],
  };
}

/** Registers a titular's request, due PRIVACY_REQUEST_DUE_DAYS after `receivedAt`; on the trail in the same transaction. */
export async function openRequest(
  db: Database,
  context: PrivacyRequestContext,
  input: PrivacyRequestInput,
  viewer: PrivacyRequestViewer,
): Promise<PrivacyRequestDto> {
  const hashes = cpfHashes(input.cpf);
  const dueDays = config().privacyRequestDueDays;
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(privacyRequests)
      .values({
        cpfHashes: hashes,
        documentMasked: maskCpf(input.cpf),
        kind: input.kind,
        channel: input.channel,
        contactSealed: input.contact ? seal(CONTACT_PURPOSE, input.contact) : null,
        contactMasked: input.contact ? maskContact(input.contact) : null,
        receivedAt: input.receivedAt,
        dueAt: dueAt(input.receivedAt, dueDays),
        openedBy: context.actor.id,
      })
      .returning({ id: privacyRequests.id });
    // The contact may name the person: the trail keeps whether one was given, never the contact.
    await recordEvent(
      {
        ...requestEvent(context, { id: row!.id, cpfHashes: hashes }),
        action: "privacy.request.open",
        outcome: "success",
        details: { kind: input.kind, channel: input.channel, dueDays, contactGiven: input.contact !== undefined },
      },
      tx,
    );
    return row!.id;
  });
  return (await findRequest(db, id, viewer))!;
}

/**
 * What the answer points at: for a report, the latest `privacy.report` event about the person since the request was
 * received; for an erasure, the latest erasure request about the person since then that was not cancelled. Without
 * one, the answer was not given: a 409 saying what to do first.
 */
async function answeredWith(
  tx: Database,
  row: PrivacyRequestRow,
  sent: CloseRequestInput["sent"],
): Promise<{ erasureId: string | null; reportEventId: number | null } | { error: AppError }> {
  if (sent === "report") {
    const [event] = await tx
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, "privacy.report"),
          eq(auditEvents.outcome, "success"),
          inArray(auditEvents.targetHash, row.cpfHashes),
          gte(auditEvents.at, row.receivedAt),
        ),
      )
      .orderBy(desc(auditEvents.id))
      .limit(1);
    if (!event) {
      return {
        error: new AppError("conflict", "No titular report about this person was built since the request was received: build it first."),
      };
    }
    return { erasureId: null, reportEventId: event.id };
  }
  if (sent === "erasure") {
    const [erasure] = await tx
      .select({ id: privacyErasures.id })
      .from(privacyErasures)
      .where(
        and(
          arrayOverlaps(privacyErasures.cpfHashes, row.cpfHashes),
          ne(privacyErasures.state, "cancelled"),
          gte(privacyErasures.requestedAt, row.receivedAt),
        ),
      )
      .orderBy(desc(privacyErasures.requestedAt))
      .limit(1);
    if (!erasure) {
      return { error: new AppError("conflict", "No erasure of this person was asked since the request was received: ask for it first.") };
    }
    return { erasureId: erasure.id, reportEventId: null };
  }
  return { erasureId: null, reportEventId: null };
}

/** A refused close of a known request on the trail (best effort, outside the rolled-back work), then thrown. */
async function refused(
  db: Database,
  context: PrivacyRequestContext,
  row: PrivacyRequestRow,
  sent: string,
  error: AppError,
): Promise<never> {
  const { outcome, reason } = failureOf(error);
  await recordEvent({ ...requestEvent(context, row), action: "privacy.request.close", outcome, details: { sent, reason } }, db).catch(
    (auditError: unknown) => log.error("audit_failed", { action: "privacy.request.close", error: auditError }),
  );
  throw error;
}

/** Closes an open request with what was sent; a request already closed, or an answer not given yet: 409 (on the trail). */
export async function closeRequest(
  db: Database,
  context: PrivacyRequestContext,
  id: string,
  input: CloseRequestInput,
  viewer: PrivacyRequestViewer,
): Promise<PrivacyRequestDto> {
  if (!UUID.test(id)) throw new RequestNotFoundError();
  const now = new Date();
  const refusal = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(privacyRequests).where(eq(privacyRequests.id, id)).for("update");
    if (!row) throw new RequestNotFoundError();
    if (row.state !== "open") return { row, error: new AppError("conflict", "This titular request is already closed.") };
    const links = await answeredWith(tx, row, input.sent);
    if ("error" in links) return { row, error: links.error };
    await tx
      .update(privacyRequests)
      .set({
        state: "closed",
        closedBy: context.actor.id,
        closedAt: now,
        sent: input.sent,
        answerSealed: seal(ANSWER_PURPOSE, input.answer),
        ...links,
      })
      .where(eq(privacyRequests.id, row.id));
    // The answer may name the person: the trail keeps its length, what was sent and whether it was late.
    await recordEvent(
      {
        ...requestEvent(context, row),
        action: "privacy.request.close",
        outcome: "success",
        details: {
          sent: input.sent,
          answerLength: input.answer.length,
          late: isLate(row.dueAt, now),
          daysLeft: daysLeft(row.dueAt, now),
          // The erasure is linked on the request's row (a UUID is no detail the trail keeps); the report's event by id.
          reportEventId: links.reportEventId,
        },
      },
      tx,
    );
    return null;
  });
  if (refusal) return refused(db, context, refusal.row, input.sent, refusal.error);
  return (await findRequest(db, id, viewer))!;
}

const opener = alias(staffUsers, "opener");
const closer = alias(staffUsers, "closer");

function selectRequests(db: Database) {
  return db
    .select({
      row: privacyRequests,
      opener: { id: opener.id, name: opener.name, email: opener.email },
      closer: { id: closer.id, name: closer.name, email: closer.email },
    })
    .from(privacyRequests)
    .innerJoin(opener, eq(opener.id, privacyRequests.openedBy))
    .leftJoin(closer, eq(closer.id, privacyRequests.closedBy));
}

type RequestSelection = Awaited<ReturnType<ReturnType<typeof selectRequests>["where"]>>[number];

function toDto({ row, opener: openedBy, closer: closedBy }: RequestSelection, viewer: PrivacyRequestViewer, now: Date): PrivacyRequestDto {
  const contact = row.contactSealed ? (viewer.unmasked ? open(CONTACT_PURPOSE, row.contactSealed) : row.contactMasked) : null;
  // A closed request's clock stopped when it was closed.
  const at = row.closedAt ?? now;
  return {
    id: row.id,
    documentMasked: row.documentMasked,
    kind: row.kind as RequestKind,
    channel: row.channel as RequestChannel,
    contact,
    contactMasked: contact !== null && !viewer.unmasked,
    receivedAt: row.receivedAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    daysLeft: daysLeft(row.dueAt, at),
    late: isLate(row.dueAt, at),
    state: row.state,
    openedBy: openedBy satisfies PrivacyRequestMember,
    openedAt: row.openedAt.toISOString(),
    lateNotifiedAt: row.lateNotifiedAt?.toISOString() ?? null,
    closedBy: closedBy ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    sent: row.sent ?? null,
    answer: row.answerSealed ? open(ANSWER_PURPOSE, row.answerSealed) : null,
    erasureId: row.erasureId ?? null,
    reportEventId: row.reportEventId ?? null,
  };
}

/** One request as `viewer` sees it. */
export async function findRequest(
  db: Database,
  id: string,
  viewer: PrivacyRequestViewer,
  now = new Date(),
): Promise<PrivacyRequestDto | null> {
  if (!UUID.test(id)) return null;
  const [found] = await selectRequests(db).where(eq(privacyRequests.id, id));
  return found ? toDto(found, viewer, now) : null;
}

/**
 * The open requests by due time: the late ones first (the longest late on top), then the fewest days left; then the
 * latest closed ones.
 */
export async function listRequests(db: Database, viewer: PrivacyRequestViewer, now = new Date()): Promise<PrivacyRequestListResponse> {
  const [openRows, closedRows] = await Promise.all([
    selectRequests(db).where(eq(privacyRequests.state, "open")).orderBy(asc(privacyRequests.dueAt), asc(privacyRequests.openedAt)),
    selectRequests(db).where(eq(privacyRequests.state, "closed")).orderBy(desc(privacyRequests.closedAt)).limit(CLOSED_LIMIT),
  ]);
  const dto = (selection: RequestSelection) => toDto(selection, viewer, now);
  return { open: openRows.map(dto), closed: closedRows.map(dto), dueDays: config().privacyRequestDueDays };
}

/** The open requests past their due time whose officers were not told yet (the late job's work list). */
export async function lateUntold(db: Database, now: Date): Promise<PrivacyRequestRow[]> {
  return db
    .select()
    .from(privacyRequests)
    .where(and(eq(privacyRequests.state, "open"), lt(privacyRequests.dueAt, now), isNull(privacyRequests.lateNotifiedAt)))
    .orderBy(asc(privacyRequests.dueAt));
}
