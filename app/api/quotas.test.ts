import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { GET as auditLog } from "@/app/api/audit/route";
import { GET as image } from "@/app/api/media/[token]/route";
import { POST as smsSend } from "@/app/api/sms/send/route";
import { GET as staffList } from "@/app/api/staff/route";
import { GET as getMedia } from "@/app/api/verifications/[publicId]/media/route";
import { GET as exportCsv } from "@/app/api/verifications/export/route";
import { GET as list } from "@/app/api/verifications/route";
import type { StaffListEntry } from "@/lib/staff/types";
import type { VerificationListResponse, VerificationMediaResponse } from "@/lib/verifications/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { stubConfigEnv } from "@/test/config";
import { json, startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

/*
 * The per-member quotas through their route handlers, against a real sandbox (its key holds every permission,
 * so CPFs come back unmasked) and database: SMS sends per hour, images opened per hour, exported rows per day.
 * Each refusal is a 429 with Retry-After and the quota named, refused before the service is called, and on
 * the trail as denied. (Lookups and KYC starts: their own route tests; every limit across two instances:
 * lib/db/quotas.test.ts.) An export's trail says how many people the file held and who, by keyed CPF hash.
 */

let h: PartnersHarness;
const ORIGIN = "http://localhost:3000";
type ErrorBody = { error: { code: string; message: string } };

beforeAll(async () => {
  h = await startPartnersHarness({
    CORE_API_KEY: "sbx_core_unmasked",
    UPSTREAM_TIMEOUT_MS: "1500",
    CORE_MAX_PER_PAGE: "100",
    SMS_SENDS_PER_HOUR: "2",
    MEDIA_VIEWS_PER_HOUR: "2",
  });
});
afterAll(async () => {
  await h?.dispose();
});
beforeEach(async () => {
  await h.sandbox.clearRequests();
});

async function freshMember(): Promise<{ id: string; cookie: string }> {
  const member = await createTestStaff(h.db.db, { role: "analyst" });
  return { id: member.id, cookie: await sessionCookieFor(h.db.db, member) };
}

/** An SMS code sent to `phone` through the route, as the member. */
function smsAs(member: { cookie: string }, phone: string): Promise<Response> {
  return smsSend(h.request(`${ORIGIN}/api/sms/send`, { method: "POST", cookie: member.cookie, body: { phone } }));
}

async function trailOf(action: string, actorId: string): Promise<string[]> {
  return (await h.allText())
    .split("\n")
    .filter((line) => line.startsWith("audit_events:") && line.includes(`"action":"${action}"`) && line.includes(actorId));
}

function expectQuotaRefusal(response: Response, quota: string, scope: string, limit: number) {
  expect(response.status).toBe(429);
  expect(response.headers.get("x-ratelimit-quota")).toBe(quota);
  expect(response.headers.get("x-ratelimit-scope")).toBe(scope);
  expect(response.headers.get("x-ratelimit-limit")).toBe(String(limit));
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(scope === "hour" ? 3600 : 86_400);
}

describe("SMS sends per member", () => {
  it("refuses the send past the hourly limit with 429 and Retry-After, before the service, audited as denied", async () => {
    const member = await freshMember();
    const send = (phone: string) => smsAs(member, phone);
    expect((await send("+55 11 91111-0001")).status).toBe(200);
    expect((await send("+55 11 91111-0002")).status).toBe(200);
    await h.sandbox.clearRequests();
    const refused = await send("+55 11 91111-0003");
    expectQuotaRefusal(refused, "sms_send", "hour", 2);
    expect((await json<ErrorBody>(refused)).error.message).toMatch(/2 SMS codes sent per hour/);
    expect(await h.sandbox.requests()).toEqual([]);
    // Another member still sends.
    const other = await freshMember();
    expect((await smsAs(other, "+55 11 91111-0004")).status).toBe(200);
    const denied = (await trailOf("sms.send", member.id)).filter((line) => line.includes('"outcome":"denied"'));
    expect(denied).toHaveLength(1);
    expect(denied[0]).toContain("limit_per_hour");
  });

  it("does not count a send the phone's cooldown refused", async () => {
    const member = await freshMember();
    const send = (phone: string) => smsAs(member, phone);
    expect((await send("+55 11 92222-0001")).status).toBe(200);
    const cooldown = await send("+55 11 92222-0001");
    expect(cooldown.status).toBe(429);
    expect(cooldown.headers.get("x-ratelimit-quota")).toBeNull();
    // The refused resend took nothing: the second of two sends an hour is still there.
    expect((await send("+55 11 92222-0002")).status).toBe(200);
  });
});

describe("images opened per member", () => {
  it("refuses the image past the hourly limit with 429 and Retry-After, before the service, audited as denied", async () => {
    const member = await freshMember();
    const listed = await json<VerificationListResponse>(
      await list(h.request(`${ORIGIN}/api/verifications?status=approved&per_page=1`, { cookie: member.cookie })),
    );
    const publicId = listed.items[0]!.publicId;
    const media = await json<VerificationMediaResponse>(
      await getMedia(h.request(`${ORIGIN}/api/verifications/${publicId}/media`, { cookie: member.cookie }), {
        params: Promise.resolve({ publicId }),
      }),
    );
    const tokens = media.items.flatMap((item) => (item.available ? [decodeURIComponent(item.src.replace(/^\/api\/media\//, ""))] : []));
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const open = (token: string, cookie = member.cookie) =>
      image(h.request(`${ORIGIN}/api/media/${encodeURIComponent(token)}`, { cookie }), { params: Promise.resolve({ token }) });
    // A forged token uses up nothing.
    expect((await open("not-a-token")).status).toBe(403);
    for (const token of tokens.slice(0, 2)) {
      const opened = await open(token);
      expect(opened.status).toBe(200);
      await opened.arrayBuffer();
    }
    await h.sandbox.clearRequests();
    const refused = await open(tokens[0]!);
    expectQuotaRefusal(refused, "media_view", "hour", 2);
    expect(await h.sandbox.requests()).toEqual([]);
    const denied = (await trailOf("verification.image", member.id)).filter((line) => line.includes('"outcome":"denied"'));
    expect(denied.map((line) => /"reason": ?"([a-z_]+)"/.exec(line)?.[1])).toEqual(["token_invalid", "limit_per_hour"]);
  });
});

describe("exported rows per member and day", () => {
  it("refuses an export that does not fit what is left today, whole, with 429 and Retry-After, audited as denied", async () => {
    const member = await freshMember();
    const listed = await json<VerificationListResponse>(
      await list(h.request(`${ORIGIN}/api/verifications?status=review&per_page=1`, { cookie: member.cookie })),
    );
    const total = listed.pagination.total;
    expect(total).toBeGreaterThan(1);
    // Room for one such file and a little more today.
    stubConfigEnv({ EXPORT_ROWS_PER_DAY: String(total + 5) });
    const exportReview = () => exportCsv(h.request(`${ORIGIN}/api/verifications/export?status=review`, { cookie: member.cookie }));
    const first = await exportReview();
    expect(first.status).toBe(200);
    const lines = (await first.text()).split("\r\n").filter(Boolean);
    expect(lines).toHaveLength(total + 1);
    await h.sandbox.clearRequests();

    const second = await exportReview();
    expectQuotaRefusal(second, "export_rows", "day", total + 5);
    expect((await json<ErrorBody>(second)).error.message).toMatch(
      new RegExp(`This takes ${total} exported rows; 5 of your ${total + 5} exported rows per day are left`),
    );
    const denied = (await trailOf("verification.export", member.id)).filter((line) => line.includes('"outcome":"denied"'));
    expect(denied).toHaveLength(1);
    expect(denied[0]).toContain("limit_per_day");
  });

  it("records how many people the file held and each one's keyed CPF hash, so a CPF search finds the export", async () => {
    const member = await freshMember();
    stubConfigEnv({ EXPORT_ROWS_PER_DAY: "5000" });
    const response = await exportCsv(h.request(`${ORIGIN}/api/verifications/export?status=review`, { cookie: member.cookie }));
    expect(response.status).toBe(200);
    const rows = (await response.text())
      .split("\r\n")
      .filter(Boolean)
      .slice(1)
      .map((line) => line.split(","));
    const success = (await trailOf("verification.export", member.id)).find((line) => line.includes('"outcome":"success"'));
    expect(success).toMatch(new RegExp(`"people": ?${rows.length}\\b`));
    const subjects = await trailOf("verification.export_subject", member.id);
    expect(subjects).toHaveLength(rows.length);
    expect(subjects.every((line) => /"target_hash":"[0-9a-f]{64}"/.test(line))).toBe(true);
    // The audit page's CPF search finds this export for the first person in the file (key unmasked: the CPF is in the row).
    const cpf = rows[0]![2]!;
    const search = await auditLog(
      h.request(`${ORIGIN}/api/audit?action=verification.export_subject`, { cookie: h.adminCookie, headers: { "x-search-cpf": cpf } }),
    );
    const found = (await search.json()) as { events: Array<{ action: string; target: string | null }> };
    expect(found.events.some((event) => event.target === rows[0]![0])).toBe(true);
  });
});

describe("each member's use today", () => {
  it("is on the staff list admins read, per quota", async () => {
    const member = await freshMember();
    const send = (phone: string) => smsAs(member, phone);
    expect((await send("+55 11 93333-0001")).status).toBe(200);
    expect((await send("+55 11 93333-0002")).status).toBe(200);
    // Refused: not counted.
    expect((await send("+55 11 93333-0003")).status).toBe(429);
    const answer = await staffList(h.request(`${ORIGIN}/api/staff`, { cookie: h.adminCookie }));
    expect(answer.status).toBe(200);
    const { staff } = await json<{ staff: StaffListEntry[] }>(answer);
    expect(staff.find((entry) => entry.id === member.id)?.usageToday).toEqual({
      lookup: 0,
      kyc_start: 0,
      export_rows: 0,
      media_view: 0,
      sms_send: 2,
      cpf_search: 0,
    });
    // Not for a member without staff.manage.
    expect((await staffList(h.request(`${ORIGIN}/api/staff`, { cookie: member.cookie }))).status).toBe(403);
  });
});
