import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";

import { cpfHash } from "@/lib/audit-trail/server/record";
import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { StaffUserDto } from "@/lib/auth/types";
import { verificationIndex } from "@/lib/cases/server/tables";
import type { ErasureDto, ErasureListResponse } from "@/lib/privacy/erasure";
import { apiRequest, createTestStaff, sessionCookieFor, signedInStaff } from "@/test/auth";
import { testDatabases, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { POST as cancel } from "./[id]/cancel/route";
import { POST as confirm } from "./[id]/confirm/route";
import { POST as ask, GET as list } from "./route";

/*
 * The erasure routes: the permission and the step-up at the door, each field of the request named when refused,
 * one admin asking and another confirming, nothing of the CPF or the reason's text in an answer's list or on the
 * trail.
 */

const CPF = "529.982.247-25";
type Json = Record<string, unknown>;
const read = async <T = Json>(response: Response) => (await response.json()) as T;
const params = (id: string) => ({ params: Promise.resolve({ id }) });

withTestEnvironment();

describe.each(testDatabases())("erasure routes on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let asker: StaffUserDto;
  let askerCookie: string;
  let confirmerCookie: string;

  beforeAll(async () => {
    ({ user: asker, cookie: askerCookie } = await signedInStaff(handle.db, { role: "admin" }));
    confirmerCookie = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role: "admin" }));
  });

  const post = (cookie: string, body: unknown) => ask(apiRequest("/api/privacy/erasures", { method: "POST", cookie, body }));

  it("refuses a member without privacy.erase (403) and one without a fresh second factor (401 step_up_required)", async () => {
    for (const role of ["analyst", "auditor"] as const) {
      const cookie = await sessionCookieFor(handle.db, await createTestStaff(handle.db, { role }));
      expect((await post(cookie, { cpf: CPF, reason: "Asked" })).status).toBe(403);
      expect((await list(apiRequest("/api/privacy/erasures", { cookie }))).status).toBe(403);
    }
    const stale = await sessionCookieFor(handle.db, asker, { stepUp: false });
    const refused = await post(stale, { cpf: CPF, reason: "Asked" });
    expect(refused.status).toBe(401);
    expect((await read<{ error: { code: string } }>(refused)).error.code).toBe("step_up_required");
    const response = await confirm(
      apiRequest("/api/privacy/erasures/x/confirm", { method: "POST", cookie: stale }),
      params(crypto.randomUUID()),
    );
    expect(response.status).toBe(401);
    // Cancelling erases nothing: no step-up asked (an unknown request is simply not found).
    const cancelled = await cancel(
      apiRequest("/api/privacy/erasures/x/cancel", { method: "POST", cookie: stale }),
      params(crypto.randomUUID()),
    );
    expect(cancelled.status).toBe(404);
  });

  it.each([
    [{ cpf: "529.982.247-24", reason: "Asked" }, "cpf"],
    [{ reason: "Asked" }, "cpf"],
    [{ cpf: CPF, reason: "   " }, "reason"],
    [{ cpf: CPF, reason: "x".repeat(501) }, "reason"],
    [{ cpf: CPF, reason: "Asked \u202Eby email" }, "reason"],
    [{ cpf: CPF, reason: "Titular 529.982.247-25 asked" }, "reason"],
    [{ cpf: CPF, reason: "Asked", extra: true }, "(input)"],
  ])("refuses %j naming %s", async (body, field) => {
    const response = await post(askerCookie, body);
    expect(response.status).toBe(400);
    expect((await read<{ error: { fields: string[] } }>(response)).error.fields).toContain(field);
  });

  it("one admin asks, the same cannot confirm, another confirms; lists show the masked CPF only", async () => {
    await handle.db
      .insert(verificationIndex)
      .values({ publicId: crypto.randomUUID(), cpfHash: cpfHash(CPF), documentMasked: "***.982.247-**" });
    const asked = await post(askerCookie, { cpf: CPF, reason: "Titular asked by email, ticket 4411" });
    expect(asked.status).toBe(201);
    const { erasure } = await read<{ erasure: ErasureDto }>(asked);
    expect(erasure).toMatchObject({ state: "pending", documentMasked: "***.982.247-**", requestedBy: { id: asker.id }, ownRequest: true });

    const listed = await read<ErasureListResponse>(await list(apiRequest("/api/privacy/erasures", { cookie: confirmerCookie })));
    expect(listed.pending.find((item) => item.id === erasure.id)).toMatchObject({
      ownRequest: false,
      reason: "Titular asked by email, ticket 4411",
    });
    expect(JSON.stringify(listed)).not.toMatch(/52998224725|529\.982\.247-25/);

    const own = await confirm(
      apiRequest(`/api/privacy/erasures/${erasure.id}/confirm`, { method: "POST", cookie: askerCookie }),
      params(erasure.id),
    );
    expect(own.status).toBe(409);
    expect((await read<{ error: { message: string } }>(own)).error.message).toMatch(/another member/);

    const done = await confirm(
      apiRequest(`/api/privacy/erasures/${erasure.id}/confirm`, { method: "POST", cookie: confirmerCookie }),
      params(erasure.id),
    );
    expect(done.status).toBe(200);
    const confirmed = (await read<{ erasure: ErasureDto }>(done)).erasure;
    expect(confirmed.state).toBe("confirmed");
    expect(confirmed.result).toMatchObject({ verifications: 1, erased: { index_entries: 1 } });
    const again = await confirm(
      apiRequest(`/api/privacy/erasures/${erasure.id}/confirm`, { method: "POST", cookie: confirmerCookie }),
      params(erasure.id),
    );
    expect(again.status).toBe(409);

    // The trail names the request and the person's hash; neither the CPF nor the reason's text.
    const events = await handle.db.select().from(auditEvents).where(eq(auditEvents.target, erasure.id));
    expect(events.map((event) => `${event.action}:${event.outcome}`)).toEqual([
      "privacy.erasure.request:success",
      "privacy.erasure.confirm:failure",
      "privacy.erasure.confirm:success",
      "privacy.erasure.confirm:failure",
    ]);
    for (const event of events) expect(event.targetHash).toBe(cpfHash(CPF));
    expect(JSON.stringify(events)).not.toMatch(/52998224725|529\.982\.247-25|ticket 4411/);
  });
});
