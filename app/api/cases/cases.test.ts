import { beforeAll, describe, expect, it } from "vitest";

import { POST as search } from "@/app/api/search/route";
import { POST as create } from "@/app/api/verifications/route";
import type { CaseDetailResponse, CaseQueueResponse, SearchResponse } from "@/lib/cases/types";
import { signedInStaff } from "@/test/auth";
import { randomCpf } from "@/test/cpf";
import { withPartnersHarness } from "@/test/partners-ops";

import { POST as assign } from "./[publicId]/assignment/route";
import { POST as note } from "./[publicId]/notes/route";
import { POST as confirm } from "./[publicId]/outcome/confirm/route";
import { POST as outcome } from "./[publicId]/outcome/route";
import { GET as getOne } from "./[publicId]/route";
import { GET as reasons } from "./reasons/route";
import { GET as queue } from "./route";
import { POST as sync } from "./sync/route";

/*
 * The case API as Next calls it, with real session cookies, a real sandbox and the database: a sync
 * through the review list, a claim and its 409, a note, a reprove confirmed under four eyes, and search
 * by ref_id and CPF. The CPF typed in a search is never stored and never in a URL.
 */

const h = withPartnersHarness({}, { clear: "nothing" });
let otherAnalystCookie: string;
const BASE = "http://localhost:3000/api";

async function call<T = Record<string, unknown>>(response: Response | Promise<Response>) {
  const answered = await response;
  return { status: answered.status, body: (await answered.json()) as T & { error?: { code: string; message: string; fields?: string[] } } };
}
const params = (publicId: string) => ({ params: Promise.resolve({ publicId }) });
const post = (path: string, cookie: string, body: unknown) => h.request(`${BASE}${path}`, { method: "POST", cookie, body });

/** A verification of the test's own, created through the dashboard and put in review upstream (no case yet). */
async function inReview(): Promise<string> {
  const refId = `case-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const created = await call<{ created: { publicId: string } }>(
    create(post("/verifications", h.analystCookie, { schemaVersion: "1", refId, document: { type: "cpf", number: randomCpf() } })),
  );
  expect(created.status).toBe(201);
  const publicId = created.body.created.publicId;
  const moved = await fetch(`${h.sandbox.url}/sandbox/verifications/${encodeURIComponent(publicId)}/status`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ status: "review" }),
  });
  expect(moved.status).toBe(200);
  return publicId;
}

beforeAll(async () => {
  otherAnalystCookie = (await signedInStaff(h.db.db, { role: "analyst" })).cookie;
});

describe("case API", () => {
  it("an analyst cannot start the sync; an admin's sync pages the review list cheaply and opens its cases", async () => {
    expect((await call(sync(post("/cases/sync", h.analystCookie, undefined)))).status).toBe(403);
    const publicId = await inReview();
    expect((await call(getOne(h.request(`${BASE}/cases/${publicId}`, { cookie: h.analystCookie }), params(publicId)))).body).toEqual({
      case: null,
      takeMode: "on_decision",
    });
    await h.sandbox.clearRequests();
    const { status, body } = await call<{ ran: boolean; seen: number; opened: number; upstreamCalls: number }>(
      sync(post("/cases/sync", h.adminCookie, undefined)),
    );
    expect(status).toBe(200);
    expect(body.ran).toBe(true);
    expect(body.opened).toBeGreaterThan(0);
    const requests = (await h.sandbox.requests()).filter((entry) => entry.path.startsWith("/core/"));
    expect(requests).toHaveLength(body.upstreamCalls);
    // Every item of a page is a whole verification: one list call per 100 cases, no detail fetched.
    expect(body.upstreamCalls).toBe(Math.max(1, Math.ceil(body.seen / 100)));
    const opened = await call<CaseDetailResponse>(
      getOne(h.request(`${BASE}/cases/${publicId}`, { cookie: h.analystCookie }), params(publicId)),
    );
    expect(opened.body.case?.status).toBe("open");
    const again = await call<{ opened: number }>(sync(post("/cases/sync", h.adminCookie, undefined)));
    expect(again.body.opened).toBe(0);
  });

  it("claim, 409 for the second analyst naming the holder, note, reprove, four eyes, timeline", async () => {
    const publicId = await inReview();
    expect((await call(sync(post("/cases/sync", h.adminCookie, undefined)))).status).toBe(200);
    const open = await call<CaseDetailResponse>(
      getOne(h.request(`${BASE}/cases/${publicId}`, { cookie: h.analystCookie }), params(publicId)),
    );
    expect(open.body.case).toMatchObject({ status: "open", assignee: null });
    expect((await call(assign(post(`/cases/${publicId}/assignment`, h.analystCookie, { assignee: "me" }), params(publicId)))).status).toBe(
      200,
    );
    const mine = await call<CaseQueueResponse>(queue(h.request(`${BASE}/cases?queue=mine&per_page=200`, { cookie: h.analystCookie })));
    expect(mine.body.items.map((item) => item.publicId)).toContain(publicId);
    const taken = await call(assign(post(`/cases/${publicId}/assignment`, otherAnalystCookie, { assignee: "me" }), params(publicId)));
    expect(taken.status).toBe(409);
    expect(taken.body.error?.message).toMatch(/assigned to analyst-/);

    const tooLong = await call(note(post(`/cases/${publicId}/notes`, h.analystCookie, { text: "x".repeat(2001) }), params(publicId)));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error?.fields).toEqual(["text"]);
    // A right-to-left override (or any invisible character) would make the note read as something else.
    const spoofed = await call(
      note(post(`/cases/${publicId}/notes`, h.analystCookie, { text: "Approve: \u202Eevorppa" }), params(publicId)),
    );
    expect(spoofed.status).toBe(400);
    expect(spoofed.body.error).toMatchObject({ code: "validation", fields: ["text"] });
    expect(spoofed.body.error?.message).toContain("text: contains invisible or text-direction characters");
    const added = await call(note(post(`/cases/${publicId}/notes`, h.analystCookie, { text: "<b>not bold</b>" }), params(publicId)));
    expect(added.status).toBe(201);

    const badOutcome = await call(
      outcome(post(`/cases/${publicId}/outcome`, h.analystCookie, { recommendation: "reprove", reasons: [] }), params(publicId)),
    );
    // No reason and no comment: a reprove names both.
    expect(badOutcome.body.error?.fields).toEqual(["reasons", "comment"]);
    const wrongReason = await call(
      outcome(
        post(`/cases/${publicId}/outcome`, h.analystCookie, { recommendation: "approve", reasons: ["document_mismatch"], comment: "" }),
        params(publicId),
      ),
    );
    expect(wrongReason.status).toBe(400);
    expect(wrongReason.body.error?.fields).toEqual(["reasons"]);
    const notMine = await call(
      outcome(
        post(`/cases/${publicId}/outcome`, otherAnalystCookie, { recommendation: "approve", reasons: ["identity_confirmed"] }),
        params(publicId),
      ),
    );
    expect(notMine.status).toBe(403);
    const recorded = await call(
      outcome(
        post(`/cases/${publicId}/outcome`, h.analystCookie, {
          recommendation: "reprove",
          reasons: ["document_mismatch"],
          comment: "Name differs.",
        }),
        params(publicId),
      ),
    );
    expect(recorded.body).toEqual({ outcomeState: "pending_confirmation" });
    expect(
      (await call(confirm(post(`/cases/${publicId}/outcome/confirm`, h.analystCookie, { agree: true }), params(publicId)))).status,
    ).toBe(403);
    const confirmed = await call(
      confirm(post(`/cases/${publicId}/outcome/confirm`, h.adminCookie, { agree: true, comment: "Checked twice." }), params(publicId)),
    );
    expect(confirmed.body).toEqual({ outcomeState: "confirmed" });

    const detail = await call<CaseDetailResponse>(
      getOne(h.request(`${BASE}/cases/${publicId}`, { cookie: otherAnalystCookie }), params(publicId)),
    );
    expect(detail.body.case?.entries.map((entry) => entry.kind)).toEqual(["opened", "assigned", "note", "outcome", "confirmation"]);
    expect(detail.body.case?.entries.map((entry) => entry.text)).toEqual([
      null,
      null,
      "<b>not bold</b>",
      "Name differs.",
      "Checked twice.",
    ]);
    expect(detail.body.case?.outcomeComment).toBe("Name differs.");
    // Sealed at rest: no table of the database holds the words (lib/cases/server/sealed-text.ts).
    const dump = await h.allText();
    for (const words of ["not bold", "Name differs", "Checked twice"]) expect(dump).not.toContain(words);
    expect(detail.body.case?.outcomeState).toBe("confirmed");
    // A verification without a case answers `case: null`, not an error.
    const none = await call(getOne(h.request(`${BASE}/cases/nope`, { cookie: h.analystCookie }), params("nope")));
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ case: null, takeMode: "on_decision" });
  });

  it("searches by ref_id (a verification created here) and by CPF; the CPF is never stored or logged raw", async () => {
    const cpf = "529.982.247-25";
    const refId = `order-${Date.now()}`;
    const created = await call<{ created: { publicId: string } }>(
      create(post("/verifications", h.analystCookie, { schemaVersion: "1", refId, document: { type: "cpf", number: cpf } })),
    );
    expect(created.status).toBe(201);
    const byRef = await call<SearchResponse>(search(post("/search", h.analystCookie, { ref_id: refId })));
    expect(byRef.body.hits).toEqual([
      { publicId: created.body.created.publicId, refId, documentMasked: "***.982.247-**", caseStatus: null },
    ]);
    const byCpf = await call<SearchResponse>(search(post("/search", h.analystCookie, { cpf: "52998224725" })));
    expect(byCpf.body.hits.map((hit) => hit.publicId)).toContain(created.body.created.publicId);
    const invalid = await call(search(post("/search", h.analystCookie, { cpf: "529.982.247-24" })));
    expect(invalid.status).toBe(400);
    const everything = await h.allText();
    expect(everything).not.toMatch(/529\.?982\.?247-?25/);
    expect(everything).toContain("search.verification");
    expect(h.logLines.join("\n")).not.toMatch(/529\.?982\.?247-?25/);
  });

  it("the reason catalogue speaks the caller's language", async () => {
    const en = await call<{ reasons: Array<{ code: string; label: string }> }>(
      reasons(h.request(`${BASE}/cases/reasons`, { cookie: h.analystCookie, headers: { "accept-language": "en" } })),
    );
    expect(en.body.reasons).toContainEqual({ code: "document_expired", label: "Document expired", recommendations: ["reprove"] });
    const pt = await call<{ reasons: Array<{ code: string; label: string }> }>(
      reasons(h.request(`${BASE}/cases/reasons`, { cookie: h.analystCookie, headers: { "accept-language": "pt-BR" } })),
    );
    expect(pt.body.reasons).toContainEqual({ code: "document_expired", label: "Documento vencido", recommendations: ["reprove"] });
  });
});
