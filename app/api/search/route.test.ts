import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { learnUnmaskedCpfs } from "@/lib/cases/server/search";
import type { SearchResponse } from "@/lib/cases/types";
import type { VerificationListResponse } from "@/lib/verifications/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";

import { GET as list } from "../verifications/route";
import { POST as search } from "./route";

/*
 * The top bar's search and what it can find. With a service key that holds the unmasked permission, every list
 * page the dashboard reads teaches the index its CPFs (as keyed hashes), so a later CPF search finds the person;
 * a masked page teaches nothing. An empty answer says what the index holds and whether a CPF lookup is open.
 */

let h: PartnersHarness;
let viewerCookie: string;

const searching = async (body: unknown, cookie = h.analystCookie) => {
  const response = await search(h.request("http://localhost:3000/api/search", { method: "POST", cookie, body }));
  return { status: response.status, body: (await response.json()) as SearchResponse };
};

const rows = <T>(result: unknown) => ((result as { rows?: T[] }).rows ?? []) as T[];

beforeAll(async () => {
  h = await startPartnersHarness({ CORE_API_KEY: "sbx_core_unmasked" });
  viewerCookie = await sessionCookieFor(h.db.db, await createTestStaff(h.db.db, { role: "viewer" }));
});
afterAll(async () => {
  await h?.dispose();
});

describe("POST /api/search", () => {
  it("finds a person in review once a list page holding them was read unmasked", async () => {
    // The admin sees documents as the key gives them: unmasked here.
    const page = (await (
      await list(h.request("http://localhost:3000/api/verifications?status=review&per_page=5", { cookie: h.adminCookie }))
    ).json()) as VerificationListResponse;
    const person = page.items.find((item) => !item.documentMasked && /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(item.document));
    expect(person).toBeDefined();

    const found = await searching({ cpf: person!.document });
    expect(found.status).toBe(200);
    expect(found.body.hits.map((hit) => hit.publicId)).toContain(person!.publicId);
    expect(found.body.miss).toBeUndefined();
    // Only the keyed hash and the masked form are kept, never the CPF.
    const digits = person!.document.replace(/\D/g, "");
    expect(await h.allText()).not.toContain(digits);
  });

  it("learns from the page a member without the unmasked permission reads too: the key decides", async () => {
    const before = rows<{ n: number }>(
      await h.db.db.execute(sql`select count(*)::int as n from verification_index where cpf_hash is not null`),
    )[0]!.n;
    await list(h.request("http://localhost:3000/api/verifications?status=approved&per_page=5", { cookie: viewerCookie }));
    const after = rows<{ n: number }>(
      await h.db.db.execute(sql`select count(*)::int as n from verification_index where cpf_hash is not null`),
    )[0]!.n;
    expect(after).toBeGreaterThan(before);
  });

  it("a masked page teaches nothing", async () => {
    const learned = await learnUnmaskedCpfs(h.db.db, [
      { publicId: "masked-1", document: "***.982.247-**", documentMasked: true },
      // A document the service flagged masked is skipped even if it looks whole.
      { publicId: "masked-2", document: "529.982.247-25", documentMasked: true },
    ]);
    expect(learned).toBe(0);
    expect(rows(await h.db.db.execute(sql`select 1 from verification_index where public_id in ('masked-1', 'masked-2')`))).toEqual([]);
    expect(await searching({ cpf: "529.982.247-25" })).toMatchObject({ body: { hits: [] } });
  });

  it("reading the same unmasked page again writes nothing", async () => {
    const item = { publicId: "again-1", document: "390.533.447-05", documentMasked: false };
    expect(await learnUnmaskedCpfs(h.db.db, [item])).toBe(1);
    expect(await learnUnmaskedCpfs(h.db.db, [item])).toBe(0);
  });

  it("an empty answer says what the search can find and offers a CPF lookup to a member who may run one", async () => {
    const unknownCpf = "111.444.777-35";
    expect((await searching({ cpf: unknownCpf })).body).toEqual({
      hits: [],
      miss: { by: "cpf", sources: ["created_here", "unmasked_read", "event"], cpfLookup: true },
    });
    // A viewer holds no `lookups.run`: no lookup offered.
    expect((await searching({ cpf: unknownCpf }, viewerCookie)).body.miss).toMatchObject({ by: "cpf", cpfLookup: false });
    expect((await searching({ ref_id: "nobody-knows-this" })).body).toEqual({
      hits: [],
      miss: { by: "ref_id", sources: ["created_here", "event"], cpfLookup: false },
    });
  });
});
