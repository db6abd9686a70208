import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { json, startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

import { POST as createIntegration } from "./integrations/route";
import { POST as startKyc } from "./kyc/sessions/route";
import { POST as sendSms } from "./sms/send/route";
import { POST as validateSms } from "./sms/validate/route";
import { POST as createVerification } from "./verifications/route";

/*
 * No intent on the trail, no upstream call: with the audit writer refusing every intent (a trigger that
 * raises, in the database itself), each action with an upstream side effect answers that it was not
 * carried out, and the sandbox's request log shows that nothing reached the service.
 */

let h: PartnersHarness;

beforeAll(async () => {
  h = await startPartnersHarness();
});

/** Makes the audit writer fail, in the database itself, for the events matching `condition` (SQL on `new`). */
async function refuseAuditEvents(condition: string): Promise<void> {
  await h.db.db.execute(
    sql.raw(`create or replace function test_refuse_audit() returns trigger language plpgsql as $$
      begin
        if ${condition} then raise exception 'audit writer down'; end if;
        return new;
      end $$`),
  );
  await h.db.db.execute(sql.raw("drop trigger if exists test_refuse_audit on audit_events"));
  await h.db.db.execute(
    sql.raw("create trigger test_refuse_audit before insert on audit_events for each row execute function test_refuse_audit()"),
  );
}
afterAll(async () => {
  await h?.dispose();
});

type Handler = (request: Request) => Promise<Response>;
const ACTIONS: Array<[string, Handler, string, unknown, "analyst" | "admin"]> = [
  [
    "create a verification",
    createVerification,
    "/api/verifications",
    { schemaVersion: "1", refId: "audit-first", document: { type: "cpf", number: "52998224725" } },
    "analyst",
  ],
  ["send an SMS code", sendSms, "/api/sms/send", { phone: "+55 11 91234-5678" }, "analyst"],
  ["validate an SMS code", validateSms, "/api/sms/validate", { phone: "+55 11 91234-5678", code: "123456" }, "analyst"],
  ["start a KYC session", startKyc, "/api/kyc/sessions", { cpf: "529.982.247-25", purpose: "Onboarding check" }, "analyst"],
  ["create an integration key", createIntegration, "/api/integrations", { domain: "app.example.com", label: "Audit first" }, "admin"],
];

describe("an action with an upstream side effect is not carried out when its intent cannot be recorded", () => {
  it.for(ACTIONS)("%s", async ([, handler, path, body, role]) => {
    await refuseAuditEvents("new.outcome = 'intent'");
    await h.sandbox.clearRequests();
    const cookie = role === "admin" ? h.adminCookie : h.analystCookie;
    const response = await handler(h.request(`http://localhost:3000${path}`, { method: "POST", cookie, body }));
    expect(response.status).toBe(500);
    expect((await json<{ error: { message: string } }>(response)).error.message).toMatch(
      /could not record this action, so it was not carried out/,
    );
    expect(await h.sandbox.requests()).toEqual([]);
  });
});

describe("when only the outcome cannot be recorded", () => {
  it("still shows the created key once, and the intent is listed as open", async () => {
    const { listOpenIntents } = await import("@/lib/audit-trail/server/intents");
    await refuseAuditEvents("new.outcome = 'success' and new.action = 'integration.create'");
    const body = { domain: "outcome.example.com", label: "Outcome lost" };
    const response = await createIntegration(
      h.request("http://localhost:3000/api/integrations", { method: "POST", cookie: h.adminCookie, body }),
    );
    expect(response.status).toBe(201);
    expect((await json<{ integration: { key: string } }>(response)).integration.key).toMatch(/^[0-9a-f-]{36}$/);
    const open = await listOpenIntents(h.db.db, { graceMs: 0, now: new Date(Date.now() + 1000) });
    expect(open.map((intent) => intent.action)).toContain("integration.create");
  });
});
