import { randomUUID } from "node:crypto";

import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, expect, it } from "vitest";

import { cases } from "@/lib/cases/server/tables";
import { CoreClient } from "@/lib/upstream/core";
import { PartnersClient } from "@/lib/upstream/partners";
import { describeEachDatabase, withDatabase, withTestEnvironment } from "@/test/db";
import { withSandbox } from "@/test/sandbox";

import { runScreening, type ScreeningOptions, type ScreeningReport } from "./screening";
import { readBudget } from "./settings";
import { monitoringAlerts, monitoringScreenings, monitoringSettings } from "./tables";

/*
 * The ongoing screening against the sandbox: a person the dashboard approved is put on the PEP list by the sandbox's
 * control route, the next run opens one alert and later runs none; a run never spends more calls than the day's
 * budget (counted in the sandbox's request log); two instances never run at once, nor open one change twice.
 */

const sandbox = withSandbox();
const HOUR = 3_600_000;

interface Person {
  publicId: string;
  cpf: string;
}

let people: Person[] = [];
let core: CoreClient;
let partners: PartnersClient;

beforeAll(async () => {
  core = new CoreClient({ baseUrl: `${sandbox.url}/core`, apiKey: "sbx_core_unmasked", readRetries: 0 });
  partners = new PartnersClient({
    baseUrl: `${sandbox.url}/partners`,
    username: "backoffice",
    password: "sandbox-partner-password",
    domain: "backoffice.sandbox.local",
    integrationToken: "0b9a4c1e-5d2f-4e8a-9c71-3f6d2b8e4a10",
    tokenTtlSeconds: 3600,
    readRetries: 0,
  });
  // Approved people on no list and not PEPs: what the sandbox says about them later is the only news.
  const { items } = await core.listVerifications({ status: "approved", per_page: 100 });
  people = items
    .filter((item) => !item.documentMasked && item.pepOrigin === null && item.person.pep !== true && item.restrictiveLists.length === 0)
    .map((item) => ({ publicId: item.publicId, cpf: item.document.replace(/\D/g, "") }));
  expect(people.length).toBeGreaterThanOrEqual(20);
});

async function setFacts(cpf: string, facts: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/sandbox/people/${cpf}/facts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(facts),
  });
  expect(response.status).toBe(200);
}

describeEachDatabase("ongoing screening on $name", ({ name, open }) => {
  withTestEnvironment();
  const handle = withDatabase(open);
  // Each database's suite has its own people: the sandbox's facts outlive a suite.
  const mine = () => people.slice(name === "pglite" ? 0 : 10, name === "pglite" ? 10 : 20);
  const T0 = new Date("2026-10-01T12:00:00Z");

  const options = (overrides: Partial<ScreeningOptions> = {}): ScreeningOptions => ({
    holder: "instance-a",
    minGapMs: 0,
    speakerOf: async () => (work) => work({ core, partners }),
    attemptsPerRead: 1,
    timeZone: "UTC",
    ...overrides,
  });

  async function approve(person: Person): Promise<void> {
    await handle.db.insert(cases).values({
      publicId: person.publicId,
      upstreamStatus: "approved",
      dueAt: new Date(),
      documentMasked: "***.***.***-**",
      recommendation: "approve",
      outcomeState: "recorded",
      outcomeAt: new Date("2026-03-10T12:00:00Z"),
      status: "closed",
    });
  }

  const setBudget = (dailyBudget: number) =>
    handle.db.update(monitoringSettings).set({ dailyBudget, spentCalls: 0, spentDay: null }).where(eq(monitoringSettings.id, 1));

  beforeEach(async () => {
    await handle.db.delete(monitoringAlerts);
    await handle.db.delete(monitoringScreenings);
    await handle.db.delete(cases);
  });

  it("opens one alert when an approved person becomes a PEP, and none on the runs after", async () => {
    const [person] = mine();
    await approve(person!);
    await setBudget(100);

    const first = await runScreening(handle.db, options({ now: T0 }));
    expect(first).toMatchObject({ ran: true, screened: 1, alertsOpened: 0, failed: 0 });
    const [screening] = await handle.db.select().from(monitoringScreenings);
    expect(screening).toMatchObject({ publicId: person!.publicId, pep: false, lists: [], deceased: false, cpfChecked: true });
    // The CPF only as its keyed hash and masked form.
    expect(screening!.cpfHash).toMatch(/^[0-9a-f]{64}$/);
    expect(screening!.documentMasked).toMatch(/^\*\*\*\.\d{3}\.\d{3}-\*\*$/);
    expect(JSON.stringify(screening)).not.toContain(person!.cpf);

    await setFacts(person!.cpf, { pep: true, pep_origin: "Prefeito" });
    const second = await runScreening(handle.db, options({ now: new Date(T0.getTime() + 25 * HOUR) }));
    expect(second).toMatchObject({ ran: true, screened: 1, alertsOpened: 1 });
    const alerts = await handle.db.select().from(monitoringAlerts);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ publicId: person!.publicId, change: "pep", status: "open", assigneeId: null });
    expect(alerts[0]!.details).toMatchObject({ before: { pep: false }, now: { pep: true } });

    const third = await runScreening(handle.db, options({ now: new Date(T0.getTime() + 50 * HOUR) }));
    expect(third).toMatchObject({ ran: true, screened: 1, alertsOpened: 0 });
    expect(await handle.db.select().from(monitoringAlerts)).toHaveLength(1);

    // The screening and its alert follow the case: the cases' retention removes them with it.
    await handle.db.delete(cases).where(eq(cases.publicId, person!.publicId));
    expect(await handle.db.select().from(monitoringScreenings)).toEqual([]);
    expect(await handle.db.select().from(monitoringAlerts)).toEqual([]);
  });

  it("opens an alert per new restrictive list and for a death, not for what the case knew at approval", async () => {
    const [, person] = mine();
    await approve(person!);
    await handle.db
      .update(cases)
      .set({ flags: ["pep"] })
      .where(eq(cases.publicId, person!.publicId));
    await setBudget(100);
    await setFacts(person!.cpf, { pep: true, restrictive_lists: ["OFAC"], deceased: true });
    const run = await runScreening(handle.db, options({ now: T0 }));
    expect(run).toMatchObject({ screened: 1, alertsOpened: 2 });
    const changes = (await handle.db.select().from(monitoringAlerts)).map((alert) => alert.change).sort();
    expect(changes).toEqual(["deceased", "list:OFAC"]);
  });

  it("opens a new alert when a person taken off a list is put back on it after the first alert was closed", async () => {
    const [, , , , , , , , , person] = mine();
    await approve(person!);
    await setBudget(100);
    await setFacts(person!.cpf, { restrictive_lists: ["CEIS"] });
    expect(await runScreening(handle.db, options({ now: T0 }))).toMatchObject({ screened: 1, alertsOpened: 1 });
    // Off the list, while the alert is still open: nothing new.
    await setFacts(person!.cpf, { restrictive_lists: [] });
    expect(await runScreening(handle.db, options({ now: new Date(T0.getTime() + 25 * HOUR) }))).toMatchObject({ alertsOpened: 0 });
    // Back on it while the first alert is open: that alert stands for it.
    await setFacts(person!.cpf, { restrictive_lists: ["CEIS"] });
    expect(await runScreening(handle.db, options({ now: new Date(T0.getTime() + 50 * HOUR) }))).toMatchObject({ alertsOpened: 0 });
    await handle.db.update(monitoringAlerts).set({ status: "closed", outcome: "cleared", outcomeAt: new Date() });
    // Off, then on again after the alert was closed: news again.
    await setFacts(person!.cpf, { restrictive_lists: [] });
    await runScreening(handle.db, options({ now: new Date(T0.getTime() + 75 * HOUR) }));
    await setFacts(person!.cpf, { restrictive_lists: ["CEIS"] });
    expect(await runScreening(handle.db, options({ now: new Date(T0.getTime() + 100 * HOUR) }))).toMatchObject({ alertsOpened: 1 });
    const alerts = await handle.db.select().from(monitoringAlerts).orderBy(monitoringAlerts.detectedAt);
    expect(alerts.map((alert) => [alert.change, alert.status])).toEqual([
      ["list:CEIS", "closed"],
      ["list:CEIS", "open"],
    ]);
    // And a second open alert for the same change cannot exist, whoever writes it.
    await expect(
      handle.db.insert(monitoringAlerts).values({ publicId: person!.publicId, connectionId: "default", change: "list:CEIS" }),
    ).rejects.toThrow();
  });

  it("does not look up a person whose data was erased", async () => {
    const [person] = mine();
    await approve(person!);
    await handle.db.update(cases).set({ erasedAt: new Date() }).where(eq(cases.publicId, person!.publicId));
    await setBudget(100);
    await sandbox.clearRequests();
    expect(await runScreening(handle.db, options({ now: T0 }))).toMatchObject({ ran: true, screened: 0, calls: 0 });
    expect((await sandbox.requests()).filter((request) => !request.path.startsWith("/sandbox"))).toEqual([]);
  });

  it("stops at the day's budget: the calls it makes, as the sandbox saw them, never exceed it", async () => {
    for (const person of mine().slice(2, 8)) await approve(person);
    await setBudget(5);
    await sandbox.clearRequests();
    const run = await runScreening(handle.db, options({ now: T0 }));
    const seen = (await sandbox.requests()).filter((request) => !request.path.startsWith("/sandbox"));
    expect(run.calls).toBe(seen.length);
    expect(run.calls).toBeLessThanOrEqual(5);
    expect(run.screened).toBeLessThan(6);
    expect(run.budgetLeft).toBe(5 - run.calls);
    expect((await readBudget(handle.db, "UTC", T0)).spentToday).toBe(run.calls);

    // The same day, the next run has what is left, and no more.
    const again = await runScreening(handle.db, options({ now: new Date(T0.getTime() + HOUR) }));
    expect(run.calls + again.calls).toBeLessThanOrEqual(5);
    // A budget of 0 screens nobody.
    await setBudget(0);
    expect(await runScreening(handle.db, options({ now: new Date(T0.getTime() + 2 * HOUR) }))).toMatchObject({
      ran: true,
      calls: 0,
      screened: 0,
    });
  });

  it("lets one of two instances run at a time, and opens a change once whatever the facts an instance held", async () => {
    const [, , , , , , , , person] = mine();
    await approve(person!);
    await setBudget(100);
    await setFacts(person!.cpf, { restrictive_lists: ["ONU"] });
    // Whichever takes the lease holds it until the other has tried (returned, or entered a run of its own), so the
    // refusal is the held lease's, not the end of a run that was over before the other one asked.
    const entered: (() => void)[] = [];
    const entries = [0, 1].map(() => new Promise<void>((resolve) => entered.push(resolve)));
    const runs: Promise<ScreeningReport>[] = [];
    const holdUntilOtherTried =
      (me: 0 | 1): ScreeningOptions["whenScreening"] =>
      async (work) => {
        entered[me]!();
        await Promise.race([runs[1 - me], entries[1 - me]]);
        return work();
      };
    runs.push(runScreening(handle.db, options({ holder: randomUUID(), now: T0, whenScreening: holdUntilOtherTried(0) })));
    runs.push(runScreening(handle.db, options({ holder: randomUUID(), now: T0, whenScreening: holdUntilOtherTried(1) })));
    const [a, b] = (await Promise.all(runs)) as [ScreeningReport, ScreeningReport];
    expect([a.ran, b.ran].sort()).toEqual([false, true]);
    expect(a.alertsOpened + b.alertsOpened).toBe(1);

    // An instance that read stale facts (as if a run overlapped another after its lease ran out) sees the list as new
    // again: the unique index keeps the one alert.
    await handle.db.update(monitoringScreenings).set({ lists: [] });
    const stale = await runScreening(handle.db, options({ now: new Date(T0.getTime() + 25 * HOUR) }));
    expect(stale).toMatchObject({ screened: 1, alertsOpened: 0 });
    expect(await handle.db.select().from(monitoringAlerts)).toHaveLength(1);
  });
});
