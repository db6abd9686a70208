import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { QuotaName, QuotaWindow } from "@/lib/config";
import { createDatabase, type Database, type DatabaseHandle } from "@/lib/db/client";
import { testDatabases, type TestDatabase } from "@/test/db";
import { rejection } from "@/test/rejection";

import { consumeQuota, QuotaExceededError, QUOTAS, quotaUsageToday } from "./quotas";

/*
 * The per-member quotas, each limit on its own, counted through two database handles: on PostgreSQL two
 * independent connections to one database (two instances of the dashboard); on PGlite the one handle twice.
 * The clock is injected (`now`), never waited for.
 */

const TZ = "America/Sao_Paulo";
// Noon in São Paulo, a minute and an hour boundary: windows never straddle the calendar day here.
const NOON = new Date("2026-05-12T15:00:00.000Z");
const at = (ms: number) => new Date(NOON.getTime() + ms);

const refusal = (promise: Promise<unknown>) => rejection(promise, QuotaExceededError);

let counter = 0;
const member = () => `member-${process.pid}-${++counter}`;

/** Every limit the issue names, each as [quota, window, limit, window length in ms]. */
const LIMITS: Array<[QuotaName, QuotaWindow, number, number]> = [
  ["lookup", "minute", 3, 60_000],
  ["lookup", "day", 5, 86_400_000],
  ["kyc_start", "minute", 2, 60_000],
  ["kyc_start", "day", 4, 86_400_000],
  ["media_view", "hour", 4, 3_600_000],
  ["sms_send", "hour", 2, 3_600_000],
  ["sms_send", "day", 3, 86_400_000],
  ["cpf_search", "hour", 3, 3_600_000],
  ["cpf_search", "day", 4, 86_400_000],
];

describe.each(testDatabases())("per-member quotas on $name, across two instances", ({ open }) => {
  let first: TestDatabase;
  let second: DatabaseHandle;
  let a: Database;
  let b: Database;

  beforeAll(async () => {
    first = await open();
    second = first.url ? await createDatabase({ url: first.url }) : first;
    a = first.db;
    b = second.db;
  });
  afterAll(async () => {
    if (second !== first) await second.close();
    await first?.dispose();
  });

  it.each(LIMITS)("%s per %s: the limit holds across instances, then a 429 with Retry-After", async (name, window, limit, windowMs) => {
    const user = member();
    // Only the window under test limits; the others are wide.
    const limits = { minute: 1000, hour: 1000, day: 1000, [window]: limit };
    const used = (instance: Database, now: Date) => consumeQuota(instance, name, user, { limits, timeZone: TZ, now });
    // Uses alternate between the instances; within one window (the day: spread over hours, each in a fresh
    // minute and hour so only the day counts).
    const step = window === "day" ? 3_700_000 : 1_000;
    for (let use = 0; use < limit; use += 1) await used(use % 2 === 0 ? a : b, at(use * step));
    const refusedAt = at(limit * step);
    const error = await refusal(used(limit % 2 === 0 ? a : b, refusedAt));
    expect(error).toMatchObject({
      code: "rate_limited",
      quota: name,
      window,
      limit,
      auditOutcome: "denied",
      auditReason: `limit_per_${window}`,
    });
    expect(error.headers).toMatchObject({ "X-RateLimit-Quota": name, "X-RateLimit-Scope": window, "X-RateLimit-Limit": String(limit) });
    // Retry-After: until the window ends (the day: local midnight).
    const windowEnd =
      window === "day" ? new Date("2026-05-13T03:00:00.000Z").getTime() : Math.floor(refusedAt.getTime() / windowMs) * windowMs + windowMs;
    expect(error.retryAfterSeconds).toBe(Math.ceil((windowEnd - refusedAt.getTime()) / 1000));
    // The other instance refuses too; another member is not affected.
    await expect(refusal(used(limit % 2 === 0 ? b : a, refusedAt))).resolves.toBeInstanceOf(QuotaExceededError);
    await expect(consumeQuota(b, name, member(), { limits, timeZone: TZ, now: refusedAt })).resolves.toBeDefined();
    // The next window starts afresh.
    await expect(used(a, new Date(windowEnd + 1_000))).resolves.toBeDefined();
  });

  it("export rows per day: a file that does not fit is refused whole and takes nothing; the rows count across instances", async () => {
    const user = member();
    const limits = { day: 500 };
    const take = (instance: Database, amount: number, now = NOON) =>
      consumeQuota(instance, "export_rows", user, { amount, limits, timeZone: TZ, now });
    await take(a, 300);
    const tooMany = await refusal(take(b, 250));
    expect(tooMany).toMatchObject({ quota: "export_rows", window: "day", limit: 500 });
    expect(tooMany.message).toMatch(/This takes 250 exported rows; 200 of your 500 exported rows per day are left/);
    await take(b, 200);
    await expect(refusal(take(a, 1))).resolves.toBeInstanceOf(QuotaExceededError);
    expect((await quotaUsageToday(a, [user], { now: NOON, timeZone: TZ })).get(user)?.export_rows).toBe(500);
    // Tomorrow (local midnight), the day starts again.
    await expect(take(b, 500, new Date("2026-05-13T03:00:01.000Z"))).resolves.toBeDefined();
  });

  it("two instances racing for the last units: exactly the limit is granted", async () => {
    const user = member();
    const limits = { minute: 5 };
    const attempts = Array.from({ length: 12 }, (_, index) =>
      consumeQuota(index % 2 === 0 ? a : b, "lookup", user, { limits, timeZone: TZ, now: NOON }).then(
        () => "granted",
        (error: unknown) => (error instanceof QuotaExceededError ? "refused" : Promise.reject(error)),
      ),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((outcome) => outcome === "granted")).toHaveLength(5);
  });

  it("a refusal by a longer window gives back what the shorter one took", async () => {
    const user = member();
    const limits = { hour: 10, day: 1 };
    await consumeQuota(a, "sms_send", user, { limits, timeZone: TZ, now: NOON });
    await refusal(consumeQuota(b, "sms_send", user, { limits, timeZone: TZ, now: NOON }));
    expect((await quotaUsageToday(b, [user], { now: NOON, timeZone: TZ })).get(user)?.sms_send).toBe(1);
    // Given back explicitly (an action refused further on): the use no longer counts.
    const taken = await consumeQuota(a, "kyc_start", user, { limits: { minute: 1, day: 1 }, timeZone: TZ, now: NOON });
    await taken.giveBack();
    await expect(consumeQuota(b, "kyc_start", user, { limits: { minute: 1, day: 1 }, timeZone: TZ, now: NOON })).resolves.toBeDefined();
  });

  it("reports each member's use today, every quota, as the staff page shows it", async () => {
    const [one, two] = [member(), member()];
    for (const name of Object.keys(QUOTAS) as QuotaName[]) await consumeQuota(a, name, one, { limits: {}, timeZone: TZ, now: NOON });
    await consumeQuota(b, "media_view", one, { limits: {}, timeZone: TZ, now: at(60_000) });
    const usage = await quotaUsageToday(b, [one, two], { now: at(120_000), timeZone: TZ });
    expect(usage.get(one)).toEqual({ lookup: 1, kyc_start: 1, export_rows: 1, media_view: 2, sms_send: 1, cpf_search: 1 });
    expect(usage.get(two)).toEqual({ lookup: 0, kyc_start: 0, export_rows: 0, media_view: 0, sms_send: 0, cpf_search: 0 });
  });
});
