/*
 * Everything the sandbox remembers, composed from one module per concern: the clock (clock.ts), the request
 * log (request-log.ts), fault rules (faults.ts), partner accounts and integrations (accounts.ts), the
 * verification stores (verification-store.ts), signed files (files.ts), KYC sessions (kyc-sessions.ts), SMS
 * codes (sms-codes.ts), facts set on people since their verification (person-facts.ts), and the webhook outbox with the events that feed it (webhooks.ts,
 * verification-events.ts). The core API keys are constants (api-keys.ts), each valid until a rotation's grace ends. In memory, except the id counters
 * (ids.ts): a restart starts the data over from SANDBOX_SEED but never hands out an integration or person
 * id twice.
 */
import { randomBytes } from "node:crypto";

import { PartnerAccounts } from "./accounts";
import { KeyValidity } from "./api-keys";
import { Clock } from "./clock";
import type { SandboxConfig } from "./config";
import { Faults } from "./faults";
import type { FileEntry } from "./files";
import { IdCounters } from "./ids";
import { KycSessions } from "./kyc-sessions";
import { PersonFacts } from "./person-facts";
import { RequestLog } from "./request-log";
import { SmsCodes } from "./sms-codes";
import { VerificationEvents } from "./verification-events";
import { VerificationStores } from "./verification-store";
import { WebhookOutbox } from "./webhooks";

export class SandboxState {
  readonly clock = new Clock();
  readonly log = new RequestLog();
  readonly faults = new Faults();
  /** The core keys' ends of validity after a rotation's grace (api-keys.ts). */
  readonly keys = new KeyValidity();
  readonly startedAt = Date.now();
  /** Per-process secrets: signed URLs and JWTs do not survive a restart. */
  readonly fileSecret = randomBytes(32);
  readonly jwtSecret = randomBytes(32);
  /** `http://127.0.0.1:PORT`, known once listening. */
  publicBase = "http://127.0.0.1";

  readonly ids: IdCounters;
  readonly partners: PartnerAccounts;
  readonly verifications: VerificationStores;
  /** Signed file ids handed out by the core files route, and the picture each one opens. */
  readonly files = new Map<string, FileEntry>();
  readonly sessions: KycSessions;
  readonly sms = new SmsCodes();
  /** Facts about people set since their verification (person-facts.ts). */
  readonly people = new PersonFacts();
  readonly webhooks: WebhookOutbox;
  readonly events: VerificationEvents;

  constructor(readonly config: SandboxConfig) {
    this.ids = new IdCounters(config.dataDir);
    this.partners = new PartnerAccounts(this.ids, this.clock);
    this.sessions = new KycSessions(this.ids, this.clock);
    if (config.faults) this.faults.set(config.faults);
    this.verifications = new VerificationStores(config, this.startedAt);
    this.webhooks = new WebhookOutbox(this.clock, {
      url: config.webhookUrl,
      secret: config.webhookSecret,
      shape: config.webhookShape,
      deliveryHeader: config.webhookDeliveryHeader,
    });
    this.events = new VerificationEvents(this.verifications, this.webhooks, this.clock);
  }
}
