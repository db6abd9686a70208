import { afterAll, beforeAll, expect, it } from "vitest";

import { cpfSearchMisses } from "@/lib/audit-trail/server/search-misses";
import { indexVerifications } from "@/lib/cases/server/search";
import type { SearchResponse } from "@/lib/cases/types";
import { createTestStaff, sessionCookieFor } from "@/test/auth";
import { describeEachDatabase } from "@/test/db";
import { json, startPartnersHarness, type PartnersHarness } from "@/test/partners-ops";
import { startSandbox, type SandboxHandle } from "@/test/sandbox";

import { POST as search } from "./route";

/*
 * No unmasking by inference. A masked CPF (`***.982.247-**`) leaves 1,000 candidates whose check digits can be
 * computed; a member who sees CPFs masked may try only a few per hour (the `cpf_search` quota: 429 with
 * Retry-After, on the trail as denied), gets hit or no hit for exactly the CPF typed (never a pattern, never
 * anyone else's verifications), and repeated misses are shown to admins from the trail.
 */

let sandbox: SandboxHandle;
let h: PartnersHarness;
const ORIGIN = "http://localhost:3000";
const KNOWN = "52998224725";
// Candidates of the same mask as KNOWN (***.982.247-**), each with valid check digits.
const NEIGHBOURS = ["10098224700", "20098224719", "30098224727", "40098224735"];

beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

async function member(role: "viewer" | "analyst") {
  const user = await createTestStaff(h.db.db, { role });
  return { id: user.id, email: user.email, cookie: await sessionCookieFor(h.db.db, user) };
}

const byCpf = (cookie: string, cpf: string) => search(h.request(`${ORIGIN}/api/search`, { method: "POST", cookie, body: { cpf } }));

describeEachDatabase("CPF search by a member without personal_data.unmasked, on $name", (kind) => {
  beforeAll(async () => {
    h = await startPartnersHarness({ CPF_SEARCH_LIMIT_PER_HOUR: "3", CPF_SEARCH_LIMIT_PER_DAY: "50" }, kind, sandbox);
    await indexVerifications(h.db.db, [{ publicId: "ver_search_guard", refId: "search-guard", cpf: KNOWN }]);
  });
  afterAll(async () => {
    await h?.dispose();
  });

  it("answers hit or no hit for exactly the CPF typed: that CPF's verifications, masked, and nothing for its neighbours", async () => {
    const viewer = await member("viewer");
    const hit = await json<SearchResponse>(await byCpf(viewer.cookie, KNOWN));
    expect(hit.hits).toEqual([{ publicId: "ver_search_guard", refId: "search-guard", documentMasked: "***.982.247-**", caseStatus: null }]);
    const miss = await json<SearchResponse>(await byCpf(viewer.cookie, "11144477735"));
    expect(miss.hits).toEqual([]);
    // A mask is not a query: the candidates are not searched for the member.
    const pattern = await byCpf(viewer.cookie, "***.982.247-**");
    expect(pattern.status).toBe(400);
    expect((await json<{ error: { fields: string[] } }>(pattern)).error.fields).toEqual(["cpf"]);
  });

  it("is limited per member: past the hourly limit a 429 with Retry-After and the quota named, on the trail as denied", async () => {
    const viewer = await member("viewer");
    for (const cpf of NEIGHBOURS.slice(0, 3)) expect((await byCpf(viewer.cookie, cpf)).status).toBe(200);
    const refused = await byCpf(viewer.cookie, NEIGHBOURS[3]!);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("x-ratelimit-quota")).toBe("cpf_search");
    expect(refused.headers.get("x-ratelimit-scope")).toBe("hour");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await json<{ error: { code: string } }>(refused)).error.code).toBe("rate_limited");
    // Even the CPF that would hit is refused now: the quota comes before the index.
    expect((await byCpf(viewer.cookie, KNOWN)).status).toBe(429);
    // Another member's quota is their own.
    expect((await byCpf((await member("viewer")).cookie, KNOWN)).status).toBe(200);
    const trail = await h.allText();
    const denied = trail.split("\n").filter((line) => line.includes('"search.verification"') && line.includes(`"${viewer.id}"`));
    expect(denied.filter((line) => line.includes('"outcome":"denied"'))).toHaveLength(2);
  });

  it("does not limit a member who sees CPFs unmasked (they gain nothing by guessing)", async () => {
    const analyst = await member("analyst");
    for (const cpf of [...NEIGHBOURS, KNOWN]) expect((await byCpf(analyst.cookie, cpf)).status).toBe(200);
  });

  it("shows admins the members whose CPF searches keep finding nothing, with what the quota refused", async () => {
    const prober = await member("viewer");
    for (const cpf of NEIGHBOURS) await byCpf(prober.cookie, cpf);
    const careful = await member("viewer");
    await byCpf(careful.cookie, KNOWN);
    const flagged = await cpfSearchMisses(h.db.db, { windowHours: 1, alert: 3 });
    expect(flagged.find((row) => row.actorId === prober.id)).toMatchObject({ actorEmail: prober.email, misses: 3, refused: 1 });
    expect(flagged.some((row) => row.actorId === careful.id)).toBe(false);
    // Outside the window: an hour later than now plus the window, nothing.
    expect(await cpfSearchMisses(h.db.db, { windowHours: 1, alert: 1, now: new Date(Date.now() + 2 * 3_600_000) })).toEqual([]);
  });
});
