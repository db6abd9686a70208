import { asc, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import { AppError } from "@/lib/shared/errors";
import { UpstreamTimeoutError } from "@/lib/upstream/errors";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { audited, auditedAction, AuditUnavailableError, failureOf, type AuditDeps } from "./actions";
import type { AuditEvent } from "./record";

/*
 * The audited-action helper: intent before the side effect (no intent, no call), outcome after, the
 * answer still given when only the outcome cannot be written; reads answered only once recorded; one
 * failure vocabulary.
 */

const context = { actor: { id: "8e0c2b4e-3f7a-4d2b-9a51-1c6e0f2d7b30", email: "analyst@test.local" }, ip: "203.0.113.7" };
const at = { upstream: "core" as const, method: "POST", route: "/public/validations-persons", status: null };

/** An action name of its own per test (actions are `area.verb`, letters only). */
function randomLetters(): string {
  return Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("");
}

/** A writer double that fails on the n-th write (1-based), recording what it was given. */
function failingWriter(failOn: (event: AuditEvent, index: number) => boolean): AuditDeps & { events: AuditEvent[] } {
  const events: AuditEvent[] = [];
  return {
    events,
    recordEvent: async (event) => {
      events.push(event);
      if (failOn(event, events.length)) throw new Error("audit database down");
      return { id: events.length };
    },
  };
}

describe("auditedAction with a writer double", () => {
  it("makes no call when the intent cannot be written", async () => {
    const writer = failingWriter((event) => event.outcome === "intent");
    const call = vi.fn(async () => "created");
    await expect(auditedAction(context, { action: "verification.create" }, call, writer)).rejects.toBeInstanceOf(AuditUnavailableError);
    expect(call).not.toHaveBeenCalled();
  });

  it("still answers with what happened upstream when the outcome cannot be written", async () => {
    const writer = failingWriter((event) => event.outcome === "success");
    const call = vi.fn(async () => ({ key: "shown-once" }));
    await expect(auditedAction(context, { action: "integration.create" }, call, writer)).resolves.toEqual({ key: "shown-once" });
    expect(call).toHaveBeenCalledOnce();
    expect(writer.events.map((event) => event.outcome)).toEqual(["intent", "success"]);
  });

  it("records the intent, then a failure naming the intent and the upstream's kind, and rethrows", async () => {
    const writer = failingWriter(() => false);
    const error = new UpstreamTimeoutError(at, "timeout");
    await expect(
      auditedAction(
        context,
        { action: "sms.send", target: { type: "phone", id: "+55 11 9****-5678" } },
        () => Promise.reject(error),
        writer,
      ),
    ).rejects.toBe(error);
    expect(writer.events.map((event) => [event.outcome, event.details])).toEqual([
      ["intent", {}],
      ["failure", { intent: 1, outcome_unknown: true, reason: "timeout" }],
    ]);
  });
});

describe("audited with a writer double", () => {
  it("refuses the answer when the success cannot be written, releasing what the result holds", async () => {
    const writer = failingWriter(() => true);
    const discard = vi.fn();
    await expect(audited(context, { action: "verification.view", discard }, async () => "detail", writer)).rejects.toBeInstanceOf(
      AuditUnavailableError,
    );
    expect(discard).toHaveBeenCalledWith("detail");
  });

  it("keeps the original error when the failure cannot be written either", async () => {
    const writer = failingWriter(() => true);
    const error = new AppError("not_found");
    await expect(audited(context, { action: "verification.view" }, () => Promise.reject(error), writer)).rejects.toBe(error);
  });
});

describe("failureOf: one vocabulary", () => {
  it("uses the upstream's kind, the AppError's code, or the error's own reason", () => {
    expect(failureOf(new UpstreamTimeoutError(at, "timeout"))).toEqual({ outcome: "failure", reason: "timeout" });
    expect(failureOf(new AppError("forbidden"))).toEqual({ outcome: "denied", reason: "forbidden" });
    expect(failureOf(Object.assign(new Error("x"), { auditOutcome: "denied", auditReason: "cooldown" }))).toEqual({
      outcome: "denied",
      reason: "cooldown",
    });
    expect(failureOf(new Error("boom"))).toEqual({ outcome: "failure", reason: "internal" });
  });
});

describeEachDatabase("auditedAction on $name", ({ open }) => {
  withTestEnvironment();
  const handle = withProcessDatabase(open);

  it("writes the intent before the call and the outcome after, naming the intent", async () => {
    const action = `test.create_${randomLetters()}`;
    let seenDuringCall: string[] = [];
    await auditedAction(context, { action, detailsOf: (value: string) => ({ value }) }, async () => {
      const rows = await handle.db.select().from(auditEvents).orderBy(asc(auditEvents.id));
      seenDuringCall = rows.filter((row) => row.action === action).map((row) => row.outcome);
      return "made";
    });
    expect(seenDuringCall).toEqual(["intent"]);
    const rows = (await handle.db.select().from(auditEvents).orderBy(asc(auditEvents.id))).filter((row) => row.action === action);
    expect(rows.map((row) => row.outcome)).toEqual(["intent", "success"]);
    expect(rows[1]!.details).toEqual({ value: "made", intent: rows[0]!.id });
  });

  it("makes no call when the database refuses the intent (a trigger that raises)", async () => {
    const action = `test.blocked_${randomLetters()}`;
    await handle.db.execute(
      sql.raw(`create or replace function test_refuse_intent() returns trigger language plpgsql as $$
        begin
          if new.action = '${action}' then raise exception 'audit writer down'; end if;
          return new;
        end $$`),
    );
    await handle.db.execute(
      sql.raw("create trigger test_refuse_intent before insert on audit_events for each row execute function test_refuse_intent()"),
    );
    try {
      const call = vi.fn(async () => "made");
      await expect(auditedAction(context, { action }, call)).rejects.toBeInstanceOf(AuditUnavailableError);
      expect(call).not.toHaveBeenCalled();
    } finally {
      await handle.db.execute(sql.raw("drop trigger test_refuse_intent on audit_events"));
      await handle.db.execute(sql.raw("drop function test_refuse_intent()"));
    }
  });
});
