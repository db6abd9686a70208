import "server-only";

import { createHmac } from "node:crypto";

import { auditedAction, isOutcomeUnknown, type AuditedFailure, type RequestContext } from "@/lib/audit-trail/server";
import type { Database } from "@/lib/db/client";
import { consumeQuota } from "@/lib/db/quotas";
import { claimLock, setLock } from "@/lib/db/rate-limit";
import { AppError } from "@/lib/shared/errors";
import { maskPhone } from "@/lib/shared/phone";
import { UpstreamRateLimitedError, UpstreamValidationError } from "@/lib/upstream/errors";
import type { PartnersClient } from "@/lib/upstream/partners";

/*
 * SMS phone check: send a code, then validate the code the person reads out. A code may be sent again
 * to the same phone only after a cooldown (SMS_RESEND_COOLDOWN_SECONDS), held in the database so every
 * instance sees it. The phone is stored nowhere: the cooldown row is keyed by a keyed hash of it, and
 * the audit trail holds it masked. The hash is keyed with the AUDIT_HASH_SECRET ring's current key only: a
 * rotation of that key starts every running cooldown afresh (at most one more code per phone, once, at a moment
 * the sender does not choose; the member's SMS quota still holds). Worth it against checking every key on each
 * send for a window of seconds (docs/operations.md, "Rotating a key").
 */

export class SmsCooldownError extends AppError implements AuditedFailure {
  readonly auditOutcome = "denied";

  constructor(
    readonly retryAfterSeconds: number,
    readonly auditReason: "cooldown" | "upstream_rate_limited" = "cooldown",
  ) {
    super("rate_limited", `A code was just sent to this phone. Wait ${retryAfterSeconds} s before sending another.`, {
      retryAfterSeconds,
      retryable: true,
      fields: ["phone"],
    });
  }
}

export class SmsWrongCodeError extends AppError implements AuditedFailure {
  readonly auditOutcome = "failure";
  readonly auditReason = "wrong_code";

  constructor() {
    super("validation", "The code is wrong or has expired. Check the code the person read out, or send a new one.", { fields: ["code"] });
  }
}

function cooldownKey(phone: string, secret: string): string {
  return `sms-cooldown:${createHmac("sha256", secret).update(`phone:${phone}`).digest("hex").slice(0, 40)}`;
}

/**
 * Starts the phone's cooldown unless one is running: one atomic upsert, so two sends at the same moment
 * (double click, two instances) cannot both pass. Refused: an SmsCooldownError with the seconds left.
 */
async function claimCooldown(db: Database, key: string, seconds: number, now: Date): Promise<void> {
  const claim = await claimLock(db, key, new Date(now.getTime() + seconds * 1000), now);
  if (!claim.ok) throw new SmsCooldownError(Math.max(1, Math.ceil((claim.until.getTime() - now.getTime()) / 1000)));
}

/**
 * Sends a code: the intent is on the trail first (no intent, no SMS), then the member's quota and the
 * phone's cooldown are taken, then the service is asked. A refusal by either is recorded as denied, naming
 * the intent.
 */
export async function sendSmsCode(
  db: Database,
  client: PartnersClient,
  context: RequestContext,
  { phone, cooldownSeconds, secret, now = new Date() }: { phone: string; cooldownSeconds: number; secret: string; now?: Date },
): Promise<{ resendAfterSeconds: number }> {
  const key = cooldownKey(phone, secret);
  return auditedAction(context, { action: "sms.send", target: { type: "phone", id: maskPhone(phone) } }, async () => {
    // The member's SMS quota per hour and per day (SMS pumping costs money), then the phone's cooldown;
    // nothing sent, nothing counted.
    const quota = await consumeQuota(db, "sms_send", context.actor?.id ?? "unknown", { now });
    try {
      await claimCooldown(db, key, cooldownSeconds, now);
    } catch (error) {
      await quota.giveBack();
      throw error;
    }
    try {
      await client.sendSmsCode({ phone });
    } catch (error) {
      if (!isOutcomeUnknown(error)) await quota.giveBack();
      if (error instanceof UpstreamRateLimitedError) {
        // The service has a cooldown of its own: follow it.
        const wait = error.retryAfterSeconds ?? cooldownSeconds;
        await setLock(db, key, new Date(now.getTime() + wait * 1000));
        throw new SmsCooldownError(wait, "upstream_rate_limited");
      }
      // Nothing was sent on a definite refusal: the operator may correct and send at once. After a timeout
      // a code may have gone out, so the cooldown stays.
      if (!isOutcomeUnknown(error)) await setLock(db, key, null);
      throw error;
    }
    return { resendAfterSeconds: cooldownSeconds };
  });
}

/** Checks a code (the service consumes it): intent first, like every call with an upstream effect. */
export async function validateSmsCode(
  client: PartnersClient,
  context: RequestContext,
  { phone, code }: { phone: string; code: string },
): Promise<{ valid: true }> {
  return auditedAction(context, { action: "sms.validate", target: { type: "phone", id: maskPhone(phone) } }, async () => {
    let valid: boolean;
    try {
      valid = (await client.validateSmsCode({ phone, code })).valid;
    } catch (error) {
      // A refusal naming the code (or nothing) is a wrong, used or expired code; one naming the phone is not.
      if (!(error instanceof UpstreamValidationError && (!error.fields || error.fields.includes("code")))) throw error;
      valid = false;
    }
    if (!valid) throw new SmsWrongCodeError();
    return { valid: true as const };
  });
}
