import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { GET as auditLog } from "@/app/api/audit/route";
import { GET as caseOne } from "@/app/api/cases/[publicId]/route";
import { GET as caseQueue } from "@/app/api/cases/route";
import { POST as caseSync } from "@/app/api/cases/sync/route";
import { GET as image } from "@/app/api/media/[token]/route";
import { POST as search } from "@/app/api/search/route";
import { GET as events } from "@/app/api/verifications/[publicId]/events/route";
import { GET as media } from "@/app/api/verifications/[publicId]/media/route";
import { GET as detail } from "@/app/api/verifications/[publicId]/route";
import { GET as exportCsv } from "@/app/api/verifications/export/route";
import { GET as list } from "@/app/api/verifications/route";
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
import { staffRoles } from "@/lib/auth/server/schema";
import { isValidCpf } from "@/lib/shared/cpf";
import type { VerificationDetailResponse, VerificationListResponse, VerificationMediaResponse } from "@/lib/verifications/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

/*
 * The masking guard. With the sandbox key that holds every permission (`sbx_core_unmasked`: CPFs, names and
 * birth dates come back unmasked), a member whose role holds every permission but `personal_data.unmasked`
 * calls every route that answers verification data (list, detail, its images' descriptors and events, the CSV
 * export, search by ref_id and by CPF, the case queue and each case, the audit log and its CSV) and the guard
 * searches every answer for a full CPF (any 11-digit run whose check digits hold) and for the names and birth
 * dates the key returned. A member holding it gets them (else the guard would check nothing). A member without
 * `media.read` gets no media token and no image, and the service is not asked.
 */

const ORIGIN = "http://localhost:3000";
const CPF_RUN = /(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)/g;

type Handler = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

let h: PartnersHarness;

beforeAll(async () => {
  h = await startPartnersHarness({ CORE_API_KEY: "sbx_core_unmasked", CORE_MAX_PER_PAGE: "100", UPSTREAM_TIMEOUT_MS: "3000" });
});
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

function fullCpfsIn(text: string): string[] {
  return [...text.matchAll(CPF_RUN)].map((match) => match[0]).filter(isValidCpf);
}

/** Every answer a member gets from the routes that carry verification data, as text (JSON or CSV). */
async function everyAnswer(cookie: string, ids: { publicId: string; casePublicId: string | undefined; cpf: string; refId: string }) {
  const call = async (
    label: string,
    handler: Handler,
    path: string,
    init: { method?: string; body?: unknown; params?: Record<string, string>; headers?: Record<string, string> } = {},
  ) => {
    const response = await handler(h.request(`${ORIGIN}${path}`, { method: init.method, cookie, body: init.body, headers: init.headers }), {
      params: Promise.resolve(init.params ?? {}) as Promise<never>,
    });
    return { label, status: response.status, text: await response.text() };
  };
  const { publicId, casePublicId, cpf, refId } = ids;
  const answers = [
    await call("list", list as Handler, "/api/verifications?per_page=100"),
    await call("list, review", list as Handler, "/api/verifications?status=review&per_page=100"),
    await call("detail", detail as Handler, `/api/verifications/${publicId}`, { params: { publicId } }),
    await call("media descriptors", media as Handler, `/api/verifications/${publicId}/media`, { params: { publicId } }),
    await call("events", events as Handler, `/api/verifications/${publicId}/events`, { params: { publicId } }),
    await call("export", exportCsv as Handler, "/api/verifications/export?status=review"),
    await call("search by ref_id", search as Handler, "/api/search", { method: "POST", body: { ref_id: refId } }),
    await call("search by cpf", search as Handler, "/api/search", { method: "POST", body: { cpf } }),
    await call("case queue", caseQueue as Handler, "/api/cases?queue=open"),
    await call("audit log", auditLog as Handler, "/api/audit"),
    await call("audit CSV", auditLog as Handler, "/api/audit?format=csv"),
  ];
  if (casePublicId)
    answers.push(await call("case", caseOne as Handler, `/api/cases/${casePublicId}`, { params: { publicId: casePublicId } }));
  return answers;
}

describe("a member without personal_data.unmasked, with a key that returns everything unmasked", () => {
  let ids: { publicId: string; casePublicId: string | undefined; cpf: string; refId: string };
  let unmaskedPeople: { names: string[]; birthDates: string[] };

  beforeAll(async () => {
    // Cases from the review list, so the queue and a case have something to show.
    expect((await caseSync(h.request(`${ORIGIN}/api/cases/sync`, { method: "POST", cookie: h.adminCookie }))).status).toBeLessThan(300);
    const seen = (await (
      await list(h.request(`${ORIGIN}/api/verifications?status=review&per_page=100`, { cookie: h.analystCookie }))
    ).json()) as VerificationListResponse;
    const first = seen.items[0]!;
    unmaskedPeople = {
      names: seen.items
        .flatMap((item) => [item.person.name, item.person.motherName])
        .filter((name): name is string => !!name && !name.includes("*")),
      birthDates: seen.items.map((item) => item.person.birthDate).filter((date): date is string => !!date && !date.includes("*")),
    };
    const queue = (await (await caseQueue(h.request(`${ORIGIN}/api/cases?queue=open`, { cookie: h.adminCookie }))).json()) as {
      items: Array<{ publicId: string }>;
    };
    ids = { publicId: first.publicId, casePublicId: queue.items[0]?.publicId, cpf: first.document, refId: "guard-ref" };
  }, 120_000);

  it("the key really returns unmasked data, and a member holding the permission gets it (the guard has something to find)", async () => {
    expect(isValidCpf(ids.cpf)).toBe(true);
    expect(unmaskedPeople.names.length).toBeGreaterThan(10);
    expect(unmaskedPeople.birthDates.length).toBeGreaterThan(10);
    const holder = await memberWith(PERMISSIONS);
    const answers = await everyAnswer(holder, ids);
    expect(answers.filter((answer) => fullCpfsIn(answer.text).length > 0).map((answer) => answer.label)).toEqual(
      expect.arrayContaining(["list", "detail", "export"]),
    );
  });

  it("never receives a full CPF, an unmasked name or birth date in any answer, and is told the dashboard masked it", async () => {
    const member = await memberWith(PERMISSIONS.filter((permission) => permission !== "personal_data.unmasked"));
    const answers = await everyAnswer(member, ids);
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(10);
    const leaks = answers.flatMap((answer) => [
      ...fullCpfsIn(answer.text).map(() => `${answer.label}: a full CPF`),
      ...unmaskedPeople.names.filter((name) => answer.text.includes(name)).map(() => `${answer.label}: a name`),
      ...unmaskedPeople.birthDates.filter((date) => answer.text.includes(`"${date}"`)).map(() => `${answer.label}: a birth date`),
    ]);
    expect([...new Set(leaks)]).toEqual([]);
    const one = JSON.parse(answers.find((answer) => answer.label === "detail")!.text) as VerificationDetailResponse;
    expect(one.verification).toMatchObject({ documentMasked: true, maskedBy: "dashboard" });
    const csv = answers
      .find((answer) => answer.label === "export")!
      .text.split("\r\n")[1]!
      .split(",");
    expect(csv[3]).toBe("yes");
  });
});

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
