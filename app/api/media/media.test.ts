import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

import { GET as getMedia } from "@/app/api/verifications/[publicId]/media/route";
import { POST as postShown } from "@/app/api/verifications/[publicId]/media/shown/route";
import { GET as list } from "@/app/api/verifications/route";
import type { VerificationListResponse, VerificationMediaResponse } from "@/lib/verifications/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { sentHeaders } from "@/test/next-headers";
import { startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

import { GET as image } from "./[token]/route";

/*
 * The image route, with real signed sessions against a real sandbox: it streams the image with the
 * no-store / no-referrer / nosniff headers, refuses another user's, a forged and an expired token, and
 * the signed file URL appears in no answer, log or stored row.
 */

let h: PartnersHarness;
let otherAnalystCookie: string;
let viewerCookie: string;
let publicId: string;
let tokens: Record<string, string>;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function tokenOf(src: string): string {
  return decodeURIComponent(src.replace(/^\/api\/media\//, ""));
}

const fetchImage = (token: string, cookie: string | null = h.analystCookie) =>
  image(h.request(`http://localhost:3000/api/media/${encodeURIComponent(token)}`, { cookie: cookie ?? undefined }), {
    params: Promise.resolve({ token }),
  });

beforeAll(async () => {
  h = await startPartnersHarness({ UPSTREAM_TIMEOUT_MS: "1500" });
  const other = await createTestStaff(h.db.db, { role: "analyst" });
  otherAnalystCookie = await sessionCookieFor(h.db.db, other);
  viewerCookie = await sessionCookieFor(h.db.db, await createTestStaff(h.db.db, { role: "viewer" }));
  const listed = (await (
    await list(h.request("http://localhost:3000/api/verifications?status=approved&per_page=1", { cookie: h.analystCookie }))
  ).json()) as VerificationListResponse;
  publicId = listed.items[0]!.publicId;
});
afterAll(async () => {
  await h?.dispose();
});
beforeEach(async () => {
  const response = await getMedia(h.request(`http://localhost:3000/api/verifications/${publicId}/media`, { cookie: h.analystCookie }), {
    params: Promise.resolve({ publicId }),
  });
  const body = (await response.json()) as VerificationMediaResponse;
  tokens = Object.fromEntries(body.items.flatMap((item) => (item.available ? [[item.key, tokenOf(item.src)]] : [])));
  await h.sandbox.clearRequests();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("GET /api/media/[token]", () => {
  it("reaches the browser sandboxed and without a referrer, next.config.mjs's headers included (docs/security.md)", async () => {
    const response = await fetchImage(tokens.selfie!);
    expect(response.status).toBe(200);
    await response.body?.cancel();
    // As a Next server sends it: its configured headers first, the handler's only where those set nothing.
    const sent = await sentHeaders(`/api/media/${encodeURIComponent(tokens.selfie!)}`, response);
    const policy = (sent.get("content-security-policy") ?? "").split(/;\s*/);
    expect(policy).toEqual(expect.arrayContaining(["default-src 'none'", "sandbox"]));
    expect(sent.get("referrer-policy")).toBe("no-referrer");
    expect(sent.get("x-content-type-options")).toBe("nosniff");
    expect(sent.get("cache-control")).toBe("no-store");
    expect(sent.get("content-type")).toBe("image/png");
  });

  it("streams the image with no-store, no-referrer and nosniff, from the signed URL its token carries", async () => {
    for (const key of ["selfie", "document_back"]) {
      const response = await fetchImage(tokens[key]!);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("location")).toBeNull();
      for (const [, value] of response.headers) expect(value).not.toContain("/files/");
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect([...bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
    }
    const paths = (await h.sandbox.requests()).map((request) => request.path);
    // Each view opens the signed URL sealed in its token: the files operation is not asked again.
    expect(paths.filter((path) => path === `/core/public/validations-persons/${publicId}/files`)).toHaveLength(0);
    expect(paths.filter((path) => path.startsWith("/files/"))).toHaveLength(2);
  });

  it("refuses another user's token, without calling the service", async () => {
    const response = await fetchImage(tokens.selfie!, otherAnalystCookie);
    expect(response.status).toBe(403);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe("This image link is not valid for you.");
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses forged, tampered and oversized tokens alike", async () => {
    const token = tokens.selfie!;
    const tampered = token.slice(0, 60) + (token[60] === "A" ? "B" : "A") + token.slice(61);
    for (const forged of [tampered, "Fe26.2**forged", "not-a-token", "x".repeat(5000)]) {
      const response = await fetchImage(forged);
      expect(response.status).toBe(403);
    }
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses a token older than its time to live", async () => {
    const token = tokens.document_back!;
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 301_000);
    const expired = await fetchImage(token);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as { error: { code: string } }).error.code).toBe("media_token_expired");
    // Past iron's own clock-skew allowance the seal itself no longer opens.
    vi.setSystemTime(Date.now() + 600_000);
    expect((await fetchImage(token)).status).toBe(403);
    expect(await h.sandbox.requests()).toEqual([]);
  });

  it("refuses anonymous callers", async () => {
    expect((await fetchImage(tokens.selfie!, null)).status).toBe(401);
  });

  it("records each image view on the audit trail, a refused one too, without the token or the URL", async () => {
    const { rows: before } = (await h.db.db.execute(sql`select coalesce(max(id), 0)::int as id from audit_events`)) as unknown as {
      rows: Array<{ id: number }>;
    };
    await (await fetchImage(tokens.document_front!)).arrayBuffer();
    expect((await fetchImage(tokens.selfie!, otherAnalystCookie)).status).toBe(403);
    const result = await h.db.db.execute(
      sql`select target, outcome, details::text as details from audit_events where action = 'verification.image' and id > ${before[0]!.id} order by id`,
    );
    const events = (result as unknown as { rows: Array<{ target: string | null; outcome: string; details: string }> }).rows;
    expect(events.map((event) => event.outcome)).toEqual(["success", "denied"]);
    expect(events[0]!.target).toBe(publicId);
    expect(events[0]!.details).toContain("document_front");
    const stored = await h.allText();
    expect(stored).not.toContain("/files/");
    expect(stored).not.toContain(tokens.selfie!.slice(0, 40));
    const logs = h.logLines.join("\n");
    expect(logs).not.toContain("/files/");
    expect(logs).not.toContain(tokens.selfie!.slice(0, 40));
  });
});

/** The audit events written since `since` (an event id), oldest first. */
async function eventsSince(since: number) {
  const result = await h.db.db.execute(
    sql`select action, target, outcome, details::text as details from audit_events where id > ${since} order by id`,
  );
  return (result as unknown as { rows: Array<{ action: string; target: string | null; outcome: string; details: string }> }).rows;
}

async function lastEventId(): Promise<number> {
  const { rows } = (await h.db.db.execute(sql`select coalesce(max(id), 0)::int as id from audit_events`)) as unknown as {
    rows: Array<{ id: number }>;
  };
  return rows[0]!.id;
}

const AHEAD = { "x-kyc-ahead": "1", "x-kyc-background": "1" };

const postShownFiles = (files: unknown, cookie: string = h.analystCookie) =>
  postShown(h.request(`http://localhost:3000/api/verifications/${publicId}/media/shown`, { method: "POST", cookie, body: { files } }), {
    params: Promise.resolve({ publicId }),
  });

describe("images read ahead (the queue's next case)", () => {
  it("records tokens and bytes read ahead as read, not seen, and the view when the page reports it shown", async () => {
    const since = await lastEventId();
    const media = await getMedia(
      h.request(`http://localhost:3000/api/verifications/${publicId}/media`, { cookie: h.analystCookie, headers: AHEAD }),
      { params: Promise.resolve({ publicId }) },
    );
    expect(media.status).toBe(200);
    const ahead = await image(
      h.request(`http://localhost:3000/api/media/${encodeURIComponent(tokens.selfie!)}`, { cookie: h.analystCookie, headers: AHEAD }),
      { params: Promise.resolve({ token: tokens.selfie! }) },
    );
    expect(ahead.status).toBe(200);
    // The bytes are the same as any view's, and just as uncacheable.
    expect(ahead.headers.get("cache-control")).toBe("no-store");
    expect([...new Uint8Array(await ahead.arrayBuffer()).slice(0, 8)]).toEqual(PNG_SIGNATURE);
    let events = await eventsSince(since);
    expect(events.map((event) => [event.action, JSON.parse(event.details).ahead])).toEqual([
      ["verification.media", "read"],
      ["verification.image", "read"],
    ]);

    await h.sandbox.clearRequests();
    const shown = await postShownFiles(["selfie"]);
    expect(shown.status).toBe(200);
    // Reporting a view asks the service nothing.
    expect(await h.sandbox.requests()).toEqual([]);
    expect(await shown.json()).toEqual({ recorded: 1 });
    events = await eventsSince(since);
    const view = events.at(-1)!;
    expect(view.action).toBe("verification.image");
    expect(view.target).toBe(publicId);
    expect(view.outcome).toBe("success");
    expect(JSON.parse(view.details)).toMatchObject({ file: "selfie", ahead: "shown" });
  });

  it("an image opened the usual way carries no read-ahead mark", async () => {
    const since = await lastEventId();
    await (await fetchImage(tokens.document_front!)).arrayBuffer();
    const [event] = await eventsSince(since);
    expect(JSON.parse(event!.details)).not.toHaveProperty("ahead");
  });

  it("refuses a report naming no file, a repeated file or something that is not a file key, naming the field", async () => {
    for (const files of [[], ["selfie", "selfie"], ["../selfie"], "selfie"]) {
      const response = await postShownFiles(files);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { fields: string[] } }).error.fields[0]).toMatch(/^files/);
    }
  });

  it("records nothing shown for a member without media.read", async () => {
    const since = await lastEventId();
    expect((await postShownFiles(["selfie"], viewerCookie)).status).toBe(403);
    expect((await eventsSince(since)).filter((event) => event.action === "verification.image")).toEqual([]);
  });
});
