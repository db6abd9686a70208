/* KYC sessions started through POST /kyc/get-sdk-url; the widget page looks them up. In memory. */
import { randomUUID } from "node:crypto";

import type { Clock } from "./clock";
import type { IdCounters } from "./ids";

export interface KycSession {
  sessionId: string;
  personId: number;
  cpf: string;
  integrationUuid: string;
  createdAt: number;
}

export class KycSessions {
  private readonly sessions = new Map<string, KycSession>();

  constructor(
    private readonly ids: IdCounters,
    private readonly clock: Clock,
  ) {}

  create(cpf: string, integrationUuid: string): KycSession {
    const session: KycSession = {
      sessionId: randomUUID(),
      personId: this.ids.take("person"),
      cpf,
      integrationUuid,
      createdAt: this.clock.now(),
    };
    this.sessions.set(session.sessionId, session);
    return session;
  }

  get(sessionId: string): KycSession | undefined {
    return this.sessions.get(sessionId);
  }
}
