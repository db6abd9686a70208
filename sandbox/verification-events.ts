/*
 * Verification events out: turns a change of a verification into webhook events (webhooks.ts queues and
 * delivers them), and on each background tick reports created verifications whose flow expired.
 */
import type { Clock } from "./clock";
import type { VerificationRecord } from "./fixtures/verifications";
import type { Located, VerificationStores } from "./verification-store";
import type { DeliveryOptions, VerificationEvent, WebhookOutbox } from "./webhooks";

/** The tenant of a core integration, as the envelope payload names it (`tenant_public_id`). */
const TENANT_OF: Record<string, string> = { int_main: "tnt_sandbox_main", int_other: "tnt_sandbox_other" };

export class VerificationEvents {
  /** Expiries already reported (by the timer or the control route): each is reported once. */
  private readonly expiredReported = new Set<string>();

  constructor(
    private readonly verifications: VerificationStores,
    private readonly webhooks: WebhookOutbox,
    private readonly clock: Clock,
  ) {}

  /** Emits the events of a change (created, updated, and the status's own event when it has one). */
  announce(located: Located, record: VerificationRecord, events: VerificationEvent[], options: DeliveryOptions = {}): void {
    this.webhooks.emit(
      events,
      {
        publicId: record.publicId,
        refId: located.store.refIdOf(record.publicId),
        status: record.status,
        decidedAt: record.decidedAt,
        identityScore: record.identityScore,
        riskScore: record.riskScore,
        tenantPublicId: TENANT_OF[located.integration] ?? "tnt_sandbox",
      },
      options,
    );
  }

  /** Reports an expiry now (control route): the timer will not report it again. */
  announceExpired(located: Located, record: VerificationRecord, options: DeliveryOptions = {}): void {
    this.expiredReported.add(record.publicId);
    this.announce(located, record, ["verification.expired"], options);
  }

  /** A verification handed back to the person has a new flow (control route): its next expiry is reported again. */
  reopened(publicId: string): void {
    this.expiredReported.delete(publicId);
  }

  /** Runs on a timer: expiries of created verifications (verification.expired), then due webhook attempts. */
  async tick(): Promise<void> {
    const now = this.clock.now();
    for (const located of this.verifications.entries()) {
      for (const record of [...located.store.newlyExpired(now, this.expiredReported)]) {
        this.announceExpired(located, record);
      }
    }
    await this.webhooks.tick();
  }
}
