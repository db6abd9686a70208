import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { POST as openCoaf } from "@/app/api/cases/[publicId]/suspicious-activity/route";
import { GET as image } from "@/app/api/media/[token]/route";
import { POST as fileCoaf } from "@/app/api/suspicious-activity/[id]/filed/route";
import { GET as media } from "@/app/api/verifications/[publicId]/media/route";
import { GET as list } from "@/app/api/verifications/route";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { staffRoles } from "@/lib/auth/server/tables";
import type { CaseQueueResponse } from "@/lib/cases/types";
import { isValidCpf } from "@/lib/shared/cpf";
import type { VerificationDetailResponse, VerificationListResponse, VerificationMediaResponse } from "@/lib/verifications/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { INPUTS, type Ids, type Method } from "@/test/leak-guard/masking-inputs";
import { callsOf, everyAnswer, loadRoutes, ORIGIN, type Loaded } from "@/test/leak-guard/route-calls";
import { startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";
import { flatEvent, TEST_WEBHOOK_SECRET, webhookRequest } from "@/test/webhooks";

/*
 * The masking guard, built from the route table itself. With the sandbox key that holds every permission
 * (`sbx_core_unmasked`: CPFs, names and birth dates come back unmasked), a member whose role holds every permission
 * but `personal_data.unmasked` calls every handler under app/api: every GET, generically when its path has no
 * dynamic segment, and every other method whose answer carries personal data (search, lookups, the titular report,
 * KYC sessions), with the inputs INPUTS gives by path; the live stream is read for a bounded time. The guard
 * searches every answer for a full CPF (any 11-digit run whose check digits hold) and for the names and birth dates
 * the key returned (a webhook delivery carrying them was received first, so the stored events have them too); the
 * queue's person names (stored sealed by the sync) must all be masked.
 * A member holding the permission gets them (else the guard would check nothing).
 *
 * A route file that is neither callable generically nor in INPUTS fails the guard: a new route is guarded by adding
 * its inputs (or, for an answer that holds no titular's data, the reason) to INPUTS (./masking-inputs.ts), never by editing the guard itself.
 * A member without `media.read` gets no media token and no image, and the service is not asked.
 */

/*
 * A CPF as text carries one: 11 digits (dotted and dashed or not) standing alone, not inside a longer word. A run
 * inside a hash, an id or a token (the trail's hex digests, a UUID's last group, a media token's fields) is not a
 * CPF, yet about one such run in a hundred has valid check digits: matched, it failed the guard on chance alone.
 */
const CPF_RUN = /(?<![\dA-Za-z])\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?![\dA-Za-z])/g;

let h: PartnersHarness;
let routes: Loaded[];

beforeAll(async () => {
  h = await startPartnersHarness({
    CORE_API_KEY: "sbx_core_unmasked",
    CORE_MAX_PER_PAGE: "100",
    // Every route is called, some while the machine runs other suites: a slow answer must not read as a 504.
    UPSTREAM_TIMEOUT_MS: "15000",
    WEBHOOK_SIGNING_SECRET: TEST_WEBHOOK_SECRET,
  });
  routes = await loadRoutes();
}, 120_000);
afterAll(async () => {
  await h?.dispose();
});

async function memberWith(permissions: readonly Permission[]): Promise<string> {
  const [role] = await h.db.db
    .insert(staffRoles)
    .values({ name: `Guard role ${Math.random().toString(36).slice(2, 8)}`, permissions: [...permissions] })
    .returning({ id: staffRoles.id });
  const member = await createTestStaff(h.db.db, { role: role!.id as never });
  return sessionCookieFor(h.db.db, member);
}

/** The person names the queue's answers (GET /api/cases, every tab) carry. */
function queueNames(answers: Array<{ key: string; status: number; text: string }>): string[] {
  return answers
    .filter((answer) => answer.key === "GET /api/cases" && answer.status === 200)
    .flatMap((answer) => (JSON.parse(answer.text) as CaseQueueResponse).items.map((item) => item.personName))
    .filter((name): name is string => typeof name === "string");
}

function fullCpfsIn(text: string): string[] {
  return [...text.matchAll(CPF_RUN)].map((match) => match[0]).filter(isValidCpf);
}

describe("a member without personal_data.unmasked, with a key that returns everything unmasked", () => {
  let ids: Omit<Ids, "mediaToken">;
  let unmaskedPeople: { cpfs: string[]; names: string[]; birthDates: string[] };

  beforeAll(async () => {
    // Cases from the review list, so the queue and a case have something to show.
    expect((await call("POST /api/cases/sync", h.adminCookie)).status).toBeLessThan(300);
    const seen = (await (
      await list(h.request(`${ORIGIN}/api/verifications?status=review&per_page=100`, { cookie: h.analystCookie }))
    ).json()) as VerificationListResponse;
    const first = seen.items[0]!;
    unmaskedPeople = {
      // Searched for anywhere, inside a longer word too (CPF_RUN takes only those standing alone).
      cpfs: seen.items.map((item) => item.document.replace(/\D/g, "")).filter(isValidCpf),
      names: seen.items
        .flatMap((item) => [item.person.name, item.person.motherName])
        .filter((name): name is string => !!name && !name.includes("*")),
      birthDates: seen.items.map((item) => item.person.birthDate).filter((date): date is string => !!date && !date.includes("*")),
    };
    // A delivery from the service that carries the person (unknown fields included): the stored events, the
    // verification's event history and the live stream must not hand them on.
    const webhook = routes.find((route) => route.key === "POST /api/webhooks/verification-events")!;
    const delivery = flatEvent(first.publicId, {
      document: first.document,
      name: first.person.name,
      birth_date: first.person.birthDate,
      holder: { full_name: first.person.name, cpf: first.document },
    });
    expect((await webhook.handler(webhookRequest(delivery), { params: Promise.resolve({}) as Promise<never> })).status).toBeLessThan(300);
    const queue = (await (await call("GET /api/cases", h.adminCookie, "queue=open")).json()) as { items: Array<{ publicId: string }> };
    ids = {
      publicId: first.publicId,
      casePublicId: queue.items[0]!.publicId,
      cpf: first.document,
      refId: "guard-ref",
      staffId: h.analystId,
    };
  }, 120_000);

  async function call(key: string, cookie: string, query?: string): Promise<Response> {
    const route = routes.find((entry) => entry.key === key)!;
    const [method, routePath] = key.split(" ") as [Method, string];
    return route.handler(h.request(`${ORIGIN}${routePath}${query ? `?${query}` : ""}`, { method, cookie }), {
      params: Promise.resolve({}) as Promise<never>,
    });
  }

  it("knows how to call every route under app/api, or why its answer holds no titular's data", () => {
    const unknown = routes.filter((route) => callsOf(route, { ...ids, mediaToken: "" }) === null).map((route) => route.key);
    expect(unknown, "add their inputs (or the reason) to INPUTS").toEqual([]);
    const keys = new Set(routes.map((route) => route.key));
    expect(
      Object.keys(INPUTS).filter((key) => !keys.has(key)),
      "INPUTS names routes that no longer exist",
    ).toEqual([]);
    // The routes the hand-written list missed are in the table now.
    for (const key of [
      "GET /api/verifications/[publicId]/related",
      "GET /api/overview/export",
      "GET /api/verification-events",
      "GET /api/events/stream",
    ]) {
      expect(keys.has(key), key).toBe(true);
    }
  });

  it("the key really returns unmasked data, and a member holding the permission gets it (the guard has something to find)", async () => {
    expect(isValidCpf(ids.cpf)).toBe(true);
    expect(unmaskedPeople.cpfs.length).toBeGreaterThan(10);
    expect(unmaskedPeople.names.length).toBeGreaterThan(10);
    expect(unmaskedPeople.birthDates.length).toBeGreaterThan(10);
    const holder = await memberWith(PERMISSIONS);
    const answers = await everyAnswer(h, routes, holder, ids);
    expect([...new Set(answers.filter((answer) => fullCpfsIn(answer.text).length > 0).map((answer) => answer.key))]).toEqual(
      expect.arrayContaining(["GET /api/verifications", "GET /api/verifications/[publicId]", "GET /api/verifications/export"]),
    );
    // The queue names each case's person (stored sealed, from the sync): whole for the holder.
    expect(queueNames(answers).filter((name) => !name.includes("*")).length).toBeGreaterThan(10);
  }, 180_000);

  it("never receives a full CPF, an unmasked name or birth date in any answer, and is told the dashboard masked it", async () => {
    const member = await memberWith(PERMISSIONS.filter((permission) => permission !== "personal_data.unmasked"));
    const answers = await everyAnswer(h, routes, member, ids);
    expect(
      answers
        .filter((answer) => answer.status >= 500 && answer.status !== answer.mayFail)
        .map((answer) => `${answer.label}: ${answer.status}`),
    ).toEqual([]);
    // The answers that carry verification data each answered (a refusal would check nothing).
    const answered = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.key));
    for (const key of [
      "GET /api/verifications",
      "GET /api/verifications/[publicId]",
      "GET /api/verifications/[publicId]/events",
      "GET /api/verifications/[publicId]/related",
      "GET /api/verifications/export",
      "GET /api/overview/export",
      "GET /api/verification-events",
      "GET /api/events/stream",
      "GET /api/cases",
      "GET /api/cases/[publicId]",
      "GET /api/media/[token]",
      "GET /api/audit",
      "POST /api/search",
      "POST /api/lookups/cpf",
      "POST /api/privacy/reports",
    ]) {
      expect(answered.has(key), key).toBe(true);
    }
    const leaks = answers.flatMap((answer) => [
      ...fullCpfsIn(answer.text).map(() => `${answer.label}: a full CPF`),
      ...unmaskedPeople.cpfs.filter((cpf) => answer.text.includes(cpf)).map(() => `${answer.label}: a CPF the key returned`),
      ...unmaskedPeople.names.filter((name) => answer.text.includes(name)).map(() => `${answer.label}: a name`),
      ...unmaskedPeople.birthDates.filter((date) => answer.text.includes(`"${date}"`)).map(() => `${answer.label}: a birth date`),
    ]);
    expect([...new Set(leaks)]).toEqual([]);
    // Every name the queue gives is masked, those of people beyond the list read above included.
    const names = queueNames(answers);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name) => !/^(\S\*\*\* ?)+$/u.test(name))).toEqual([]);
    const one = JSON.parse(
      answers.find((answer) => answer.key === "GET /api/verifications/[publicId]")!.text,
    ) as VerificationDetailResponse;
    expect(one.verification).toMatchObject({ documentMasked: true, maskedBy: "dashboard" });
    const csv = answers
      .find((answer) => answer.key === "GET /api/verifications/export")!
      .text.split("\r\n")[1]!
      .split(",");
    expect(csv[3]).toBe("yes");
  }, 180_000);

  // No tipping off (Lei 9.613/98 art. 11 § 2): with a filed COAF report on the case, a member holding every permission
  // but coaf.report meets neither its id nor its protocol in any answer, nor the words in any answer about a person.
  it("never tells a member without coaf.report of a suspicious-activity report, in any answer", async () => {
    const protocol = "SISCOAF-GUARD-424242";
    const opened = await openCoaf(
      h.request(`${ORIGIN}/api/cases/${ids.casePublicId}/suspicious-activity`, {
        method: "POST",
        cookie: h.adminCookie,
        body: { summary: "Guard: structured deposits", grounds: ["other"] },
      }),
      { params: Promise.resolve({ publicId: ids.casePublicId }) },
    );
    expect(opened.status).toBe(201);
    const reportId = ((await opened.json()) as { report: { id: string } }).report.id;
    const filed = await fileCoaf(
      h.request(`${ORIGIN}/api/suspicious-activity/${reportId}/filed`, {
        method: "POST",
        cookie: h.adminCookie,
        body: { protocol, filedAt: new Date().toISOString() },
      }),
      { params: Promise.resolve({ id: reportId }) },
    );
    expect(filed.status).toBe(200);
    const member = await memberWith(PERMISSIONS.filter((permission) => permission !== "coaf.report"));
    const answers = await everyAnswer(h, routes, member, ids);
    for (const key of ["GET /api/cases/[publicId]", "GET /api/audit", "POST /api/privacy/reports", "GET /api/notifications"]) {
      expect(
        answers.some((answer) => answer.key === key && answer.status === 200),
        key,
      ).toBe(true);
    }
    expect(answers.filter((answer) => answer.text.includes(reportId) || answer.text.includes(protocol)).map((a) => a.label)).toEqual([]);
    // Answers about the dashboard itself, not a person, may name the feature: the permission catalogue and roles, the
    // retention policies, and the report routes' own refusals.
    const wording = answers.filter(
      (answer) => !COAF_WORDING_ALLOWED.some((key) => answer.key === key) && /coaf|suspicious|suspeit/i.test(answer.text),
    );
    expect(wording.map((answer) => answer.label)).toEqual([]);
  }, 180_000);
});

const COAF_WORDING_ALLOWED = [
  "GET /api/permissions",
  "GET /api/roles",
  "GET /api/privacy/retention",
  "GET /api/suspicious-activity",
  "POST /api/cases/[publicId]/suspicious-activity",
];

describe("a member without media.read", () => {
  it("gets no media token and no image, and the service is not asked", async () => {
    const withMedia = await memberWith(["verifications.read", "media.read"]);
    const without = await memberWith(PERMISSIONS.filter((permission) => permission !== "media.read"));
    const publicId = (
      (await (
        await list(h.request(`${ORIGIN}/api/verifications?status=approved&per_page=1`, { cookie: withMedia }))
      ).json()) as VerificationListResponse
    ).items[0]!.publicId;
    const descriptors = (await (
      await media(h.request(`${ORIGIN}/api/verifications/${publicId}/media`, { cookie: withMedia }), {
        params: Promise.resolve({ publicId }),
      })
    ).json()) as VerificationMediaResponse;
    const src = descriptors.items.find((item) => item.available && item.key === "selfie");
    if (!src?.available) throw new Error("expected a selfie");
    const token = decodeURIComponent(src.src.replace(/^\/api\/media\//, ""));
    await h.sandbox.clearRequests();

    const refused = await media(h.request(`${ORIGIN}/api/verifications/${publicId}/media`, { cookie: without }), {
      params: Promise.resolve({ publicId }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain("/api/media/");
    const picture = await image(h.request(`${ORIGIN}/api/media/${encodeURIComponent(token)}`, { cookie: without }), {
      params: Promise.resolve({ token }),
    });
    expect(picture.status).toBe(403);
    expect(picture.headers.get("content-type")).not.toMatch(/^image\//);
    expect(await h.sandbox.requests()).toEqual([]);
  });
});
