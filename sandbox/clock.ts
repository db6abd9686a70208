/*
 * The sandbox clock: real time plus an offset that POST /sandbox/clock moves forward. It drives token,
 * URL and SMS code lifetimes, the resend cooldown, webhook redeliveries and verification expiries.
 */

export class Clock {
  private offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
  reset(): void {
    this.offsetMs = 0;
  }
  offsetSeconds(): number {
    return this.offsetMs / 1000;
  }
}
