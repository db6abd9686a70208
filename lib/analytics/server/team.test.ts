import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { GET } from "@/app/api/analytics/team/route";
import type { TeamAnalytics } from "@/lib/analytics/types";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import { createStaff } from "@/lib/auth/server/staff-store";
import { caseEntries, caseReverifications, cases } from "@/lib/cases/server/tables";
import { apiRequest, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

/*
 * The team's numbers as GET /api/analytics/team answers them, for a scripted week of case work across two members
 * (with a third who confirms): openings, recommendations, confirmations (one disagreeing, then replaced), an
 * escalation taken up by the other member, an automatic escalation, re-verifications, reasons and the provider's
 * final statuses, plus work outside the period and on another connection that must not count. The script is written
 * straight into the case tables as the case functions write them; the expected figures are counted here from the
 * script itself, medians and 90th percentiles by sorting and interpolating between ranks.
 */

const TZ = "America/Sao_Paulo";
// 2026-03-02 to 2026-03-08 in São Paulo (UTC-3): [03-02T03:00Z, 03-09T03:00Z).
const FROM = "2026-03-02";
const TO = "2026-03-08";
const PERIOD_START = Date.parse("2026-03-02T03:00:00Z");
const PERIOD_END = Date.parse("2026-03-09T03:00:00Z");
const HOUR = 3_600_000;
const SLA_HOURS = 24;

type Recommendation = "approve" | "reprove" | "escalate";
type Event =
  | { kind: "outcome"; actor: string; at: number; recommendation: Recommendation; reasons: string[] }
  | { kind: "confirmation"; actor: string; at: number; agree: boolean; author: string }
  | { kind: "escalated"; actor: string | null; at: number };

interface ScriptedCase {
  connection?: string;
  openedAt: number;
  /** The case's effective outcome as its row holds it at the end of the script (null: none, or not effective). */
  effective: { author: string; recommendation: Recommendation; recommendedAt: number; confirmedAt?: number; confirmer?: string } | null;
  events: Event[];
  finalStatus?: string;
  disagreement?: boolean;
  reverifications?: Array<{ by: string; at: number }>;
}

/** Hours after the period's start. */
const h = (hours: number) => PERIOD_START + hours * HOUR;

function script(ana: string, bruno: string, carla: string): ScriptedCase[] {
  const decided = (
    author: string,
    opened: number,
    recommended: number,
    recommendation: "approve" | "reprove",
    reasons: string[],
    confirmed?: number,
  ) => ({
    openedAt: h(opened),
    effective: {
      author,
      recommendation,
      recommendedAt: h(recommended),
      ...(confirmed === undefined ? {} : { confirmedAt: h(confirmed), confirmer: carla }),
    },
    events: [
      { kind: "outcome" as const, actor: author, at: h(recommended), recommendation, reasons },
      ...(confirmed === undefined ? [] : [{ kind: "confirmation" as const, actor: carla, at: h(confirmed), agree: true, author }]),
    ],
  });
  return [
    // Ana: five decisions in the period.
    { ...decided(ana, 0, 2, "approve", ["identity_confirmed"]), finalStatus: "approved" },
    { ...decided(ana, 1, 6, "reprove", ["document_mismatch", "other"], 9), finalStatus: "approved", disagreement: true },
    decided(ana, 10, 17, "approve", ["identity_confirmed", "documents_consistent"]),
    // Recommended within the SLA, confirmed after it: the SLA is missed.
    { ...decided(ana, 20, 40, "reprove", ["document_expired"], 50), finalStatus: "rejected" },
    decided(ana, 30, 41, "approve", ["documents_consistent"], 42),
    // Bruno: three decisions.
    { ...decided(bruno, 5, 8, "approve", ["identity_confirmed"]), finalStatus: "approved" },
    decided(bruno, 12, 13.5, "reprove", ["low_image_quality"], 14),
    { ...decided(bruno, 50, 100, "approve", ["identity_confirmed"]), reverifications: [{ by: bruno, at: h(60) }] },
    // Ana's reprove disagreed with by Carla, then Ana's approve recorded without confirmation: decided, one disagreement.
    {
      openedAt: h(60),
      effective: { author: ana, recommendation: "approve", recommendedAt: h(70) },
      events: [
        { kind: "outcome", actor: ana, at: h(62), recommendation: "reprove", reasons: ["liveness_doubt"] },
        { kind: "confirmation", actor: carla, at: h(64), agree: false, author: ana },
        { kind: "outcome", actor: ana, at: h(70), recommendation: "approve", reasons: ["identity_confirmed"] },
      ],
      reverifications: [{ by: ana, at: h(65) }],
    },
    // Bruno escalates; Ana takes it up and reproves, Carla confirms: Ana's decision, Bruno's escalation.
    {
      openedAt: h(80),
      effective: { author: ana, recommendation: "reprove", recommendedAt: h(90), confirmedAt: h(95), confirmer: carla },
      events: [
        { kind: "outcome", actor: bruno, at: h(82), recommendation: "escalate", reasons: ["pep_exposure"] },
        { kind: "escalated", actor: bruno, at: h(82) },
        { kind: "outcome", actor: ana, at: h(90), recommendation: "reprove", reasons: ["restrictive_list_hit"] },
        { kind: "confirmation", actor: carla, at: h(95), agree: true, author: ana },
      ],
      finalStatus: "rejected",
    },
    // Past its due time with nobody's outcome: the SLA job escalated it.
    { openedAt: h(100), effective: null, events: [{ kind: "escalated", actor: null, at: h(125) }] },
    // Bruno's reprove waiting for confirmation: no decision, but its reasons were cited.
    {
      openedAt: h(110),
      effective: null,
      events: [{ kind: "outcome", actor: bruno, at: h(112), recommendation: "reprove", reasons: ["facematch_doubt"] }],
    },
    // Recommended in the period, confirmed after it: decided after the period, its reasons cited within.
    {
      ...decided(ana, 150, 160, "reprove", ["document_mismatch"], 175),
    },
    // Before the period: nothing of it counts (one re-verification too).
    { ...decided(bruno, -50, -30, "approve", ["identity_confirmed"], -4), reverifications: [{ by: ana, at: h(-1) }] },
    // Another connection's case, in the period: not this connection's numbers.
    { ...decided(ana, 3, 4, "approve", ["identity_confirmed"]), connection: "other", reverifications: [{ by: ana, at: h(5) }] },
  ];
}

/** The value at `fraction` of the sorted values, interpolating between the two nearest ranks. */
function quantile(values: number[], fraction: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = fraction * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.min(low + 1, sorted.length - 1);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

const inPeriod = (at: number) => at >= PERIOD_START && at < PERIOD_END;

/** What the numbers should be for `who` (a member's id, or null for the team), counted from the script. */
function expected(scripted: ScriptedCase[], who: string | null) {
  const here = scripted.filter((item) => (item.connection ?? "primary") === "primary");
  const mine = (actor: string | null) => who === null || actor === who;
  const decided = here.filter((item) => {
    const effective = item.effective;
    if (!effective || effective.recommendation === "escalate" || !mine(effective.author)) return false;
    return inPeriod(effective.confirmedAt ?? effective.recommendedAt);
  });
  const hoursFromOpening = (at: number, item: ScriptedCase) => (at - item.openedAt) / 1000;
  const toRecommendation = decided.map((item) => hoursFromOpening(item.effective!.recommendedAt, item));
  const toConfirmation = decided
    .filter((item) => item.effective!.confirmedAt !== undefined)
    .map((item) => hoursFromOpening(item.effective!.confirmedAt!, item));
  const events = here.flatMap((item) => item.events).filter((event) => inPeriod(event.at));
  const reasons: Record<string, number> = {};
  for (const event of events)
    if (event.kind === "outcome" && mine(event.actor)) for (const reason of event.reasons) reasons[reason] = (reasons[reason] ?? 0) + 1;
  return {
    decided: decided.length,
    approved: decided.filter((item) => item.effective!.recommendation === "approve").length,
    reproved: decided.filter((item) => item.effective!.recommendation === "reprove").length,
    toRecommendation: { count: toRecommendation.length, median: quantile(toRecommendation, 0.5), p90: quantile(toRecommendation, 0.9) },
    toConfirmation: { count: toConfirmation.length, median: quantile(toConfirmation, 0.5), p90: quantile(toConfirmation, 0.9) },
    slaMet: decided.filter((item) => (item.effective!.confirmedAt ?? item.effective!.recommendedAt) <= item.openedAt + SLA_HOURS * HOUR)
      .length,
    disagreeingConfirmations: events.filter((event) => event.kind === "confirmation" && !event.agree && mine(event.author)).length,
    escalations: events.filter((event) => event.kind === "escalated" && mine(event.actor)).length,
    reverifications: here.flatMap((item) => item.reverifications ?? []).filter((asked) => inPeriod(asked.at) && mine(asked.by)).length,
    finalKnown: decided.filter((item) => item.finalStatus !== undefined).length,
    contradicted: decided.filter((item) => item.finalStatus !== undefined && item.disagreement === true).length,
    reasons,
  };
}

describeEachDatabase("the team's numbers (GET /api/analytics/team) on $name", ({ open }) => {
  withTestEnvironment({ DISPLAY_TIME_ZONE: TZ });
  const handle = withProcessDatabase(open);
  let scripted: ScriptedCase[];
  let ids: { ana: string; bruno: string; carla: string };
  let cookie: string;

  beforeAll(async () => {
    const db = handle.db;
    const member = (name: string, role: "analyst" | "reviewer") =>
      createStaff(db, {
        email: `${name.split(" ")[0]!.toLowerCase()}-${Date.now()}@test.local`,
        name,
        role,
        passwordHash: null,
        mustChangePassword: false,
      });
    const [ana, bruno, carla] = await Promise.all([
      member("Ana Souza", "analyst"),
      member("Bruno Lima", "analyst"),
      member("Carla Reis", "reviewer"),
    ]);
    ids = { ana: ana.id, bruno: bruno.id, carla: carla.id };
    cookie = await sessionCookieFor(db, carla);
    scripted = script(ana.id, bruno.id, carla.id);

    let n = 0;
    for (const item of scripted) {
      n += 1;
      const effective = item.effective;
      const last = item.events.at(-1);
      const [row] = await db
        .insert(cases)
        .values({
          publicId: `team-case-${n}`,
          connectionId: item.connection ?? "primary",
          status: item.finalStatus ? "closed" : "open",
          upstreamStatus: item.finalStatus ?? "review",
          openedAt: new Date(item.openedAt),
          dueAt: new Date(item.openedAt + SLA_HOURS * HOUR),
          ...(item.finalStatus
            ? { finalStatus: item.finalStatus, closedAt: new Date(h(170)), disagreement: item.disagreement ?? false }
            : {}),
          ...(effective
            ? {
                recommendation: effective.recommendation,
                outcomeBy: effective.author,
                outcomeAt: new Date(effective.recommendedAt),
                outcomeState: effective.confirmedAt === undefined ? "recorded" : "confirmed",
                confirmedBy: effective.confirmer ?? null,
                confirmedAt: effective.confirmedAt === undefined ? null : new Date(effective.confirmedAt),
              }
            : last?.kind === "outcome"
              ? {
                  recommendation: last.recommendation,
                  outcomeBy: last.actor,
                  outcomeAt: new Date(last.at),
                  outcomeState: "pending_confirmation",
                }
              : {}),
        })
        .returning({ id: cases.id });
      await db.insert(caseEntries).values({ caseId: row!.id, at: new Date(item.openedAt), kind: "opened", details: {} });
      for (const event of item.events) {
        const details =
          event.kind === "outcome"
            ? { recommendation: event.recommendation, reasons: event.reasons, state: "recorded" }
            : event.kind === "confirmation"
              ? { agree: event.agree, recommendation: "reprove" }
              : {};
        await db.insert(caseEntries).values({ caseId: row!.id, at: new Date(event.at), actorId: event.actor, kind: event.kind, details });
      }
      for (const [index, asked] of (item.reverifications ?? []).entries()) {
        await db.insert(caseReverifications).values({
          caseId: row!.id,
          publicId: `team-reverification-${n}-${index}`,
          refId: `ref-${n}-${index}`,
          requestedBy: asked.by,
          requestedAt: new Date(asked.at),
        });
      }
    }
  });

  const ask = (query: string, headers: Record<string, string> = {}) =>
    GET(apiRequest(`http://localhost:3000/api/analytics/team?${query}`, { cookie, headers }), { params: Promise.resolve({}) });

  it("answers each member's and the team's figures as counted from the script, and nothing of another connection or period", async () => {
    // No service is configured here (CORE_URL and PARTNERS_URL empty): any upstream call would fail the answer.
    const response = await ask(`from=${FROM}&to=${TO}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as TeamAnalytics;
    expect(body.period).toEqual({ from: FROM, to: TO, days: 7 });

    const { automaticEscalations, ...team } = body.team;
    expect(team).toEqual(expected(scripted, null));
    expect(automaticEscalations).toBe(1);
    expect(body.members.map((member) => member.name)).toEqual(["Ana Souza", "Bruno Lima"]);
    for (const member of body.members) {
      const { memberId, name, ...figures } = member;
      expect(figures, name).toEqual(expected(scripted, memberId));
    }

    // A few figures spelled out, so the script's counting is itself held to what the scenario says.
    const ana = body.members.find((member) => member.memberId === ids.ana)!;
    const bruno = body.members.find((member) => member.memberId === ids.bruno)!;
    expect([ana.decided, bruno.decided, body.team.decided]).toEqual([7, 3, 10]);
    expect([ana.disagreeingConfirmations, body.team.disagreeingConfirmations]).toEqual([1, 1]);
    expect([ana.escalations, bruno.escalations, body.team.escalations]).toEqual([0, 1, 2]);
    expect([ana.reverifications, bruno.reverifications]).toEqual([1, 1]);
    expect([body.team.finalKnown, body.team.contradicted]).toEqual([5, 1]);
    // Bruno's recommendation times: 3 h, 1.5 h and 50 h: median 3 h; p90 between 3 h and 50 h, 80% of the way.
    expect(bruno.toRecommendation).toEqual({ count: 3, median: 3 * 3600, p90: (3 + 0.8 * 47) * 3600 });
    expect(body.members.some((member) => member.memberId === ids.carla)).toBe(false);
  });

  it("writes the same numbers as CSV, a row per member then the team's, headed in the caller's language", async () => {
    const response = await ask(`from=${FROM}&to=${TO}&format=csv`, { "accept-language": "en" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(`team-${FROM}-${TO}.csv`);
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    expect(lines[0]!.split(",").slice(0, 4)).toEqual(["Member", "Decided", "Approved", "Reproved"]);
    expect(lines.slice(1).map((line) => line.split(",").slice(0, 2))).toEqual([
      ["Ana Souza", "7"],
      ["Bruno Lima", "3"],
      ["Team", "10"],
    ]);
    const pt = await ask(`from=${FROM}&to=${TO}&format=csv`, { "accept-language": "pt-BR" });
    expect((await pt.text()).replace(/^\uFEFF/, "").split(",")[0]).toBe("Membro");
  });

  it("refuses a bad date, a period ending before it starts and one too long, naming the field", async () => {
    for (const [query, field] of [
      ["from=2026-13-01&to=2026-03-08", "from"],
      ["from=2026-03-01&to=yesterday", "to"],
      ["from=2026-03-09&to=2026-03-08", "from"],
      ["from=2025-12-01&to=2026-03-08", "to"],
      ["from=2026-03-01&to=2026-03-08&format=xml", "format"],
    ] as const) {
      const response = await ask(query);
      const body = (await response.json()) as { error: { code: string; fields?: string[] } };
      expect([response.status, body.error.code, body.error.fields], query).toEqual([400, "validation", [field]]);
    }
  });

  it("puts each read on the audit trail with its period and format", async () => {
    await ask(`from=${FROM}&to=${TO}`);
    const events = await handle.db
      .select({ details: auditEvents.details, outcome: auditEvents.outcome })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "analytics.view"), eq(auditEvents.actorId, ids.carla)));
    expect(events).toContainEqual({
      outcome: "success",
      details: expect.objectContaining({ from: FROM, to: TO, format: "json", members: 2 }),
    });
  });
});
