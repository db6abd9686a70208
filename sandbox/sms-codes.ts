/*
 * SMS codes: the live code of each phone (one per phone, across integrations) and the outbox, the last code
 * sent to each phone, which GET /sandbox/sms/outbox reads (it stays readable after use). Phones are digits.
 */

export interface SmsCode {
  code: string;
  sentAt: number;
  expiresAt: number;
  wrongAttempts: number;
}

export class SmsCodes {
  private readonly live = new Map<string, SmsCode>();
  private readonly outbox = new Map<string, string>();

  /** The phone's live code, expired or not. */
  get(phone: string): SmsCode | undefined {
    return this.live.get(phone);
  }

  /** A new code replaces the phone's live one and is recorded in the outbox. */
  issue(phone: string, entry: SmsCode): void {
    this.live.set(phone, entry);
    this.outbox.set(phone, entry.code);
  }

  /** Used, expired or invalidated: the code no longer validates. */
  drop(phone: string): void {
    this.live.delete(phone);
  }

  lastSent(phone: string): string | undefined {
    return this.outbox.get(phone);
  }
}
