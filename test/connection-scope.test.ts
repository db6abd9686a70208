import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";

import { GET as AUDIT } from "@/app/api/audit/route";
import { POST as ASSIGN } from "@/app/api/cases/[publicId]/assignment/route";
import { POST as NOTE } from "@/app/api/cases/[publicId]/notes/route";
import { GET as ONE_CASE } from "@/app/api/cases/[publicId]/route";
import { POST as SYNC } from "@/app/api/cases/sync/route";
import { GET as STREAM } from "@/app/api/events/stream/route";
import { POST as SEARCH } from "@/app/api/search/route";
import { GET as LIST } from "@/app/api/verifications/route";
import { POST as RECEIVE } from "@/app/api/webhooks/verification-events/route";
import { verifyAuditChain } from "@/lib/audit-trail/server/verify";
import { cases } from "@/lib/cases/server/tables";
import { caseFigures } from "@/lib/overview/server/cases";
import { kickWebhookProcessor } from "@/lib/webhooks/server/processor";
import { verificationEvents } from "@/lib/webhooks/server/tables";
import { CONNECTIONS, noParams, ORIGIN, SCOPE_ENV, scopeHelpers, withId } from "@/test/connection-support";
import { describeEachDatabase } from "@/test/db";
import { json, withPartnersHarness } from "@/test/partners-ops";
import { flatEvent, webhookRequest } from "@/test/webhooks";

/*
 * Data never mixed (issue 33, item 3), against a real sandbox and the three connections embedded mode seeds
 * (`primary`: int_main/sandbox, `production`: int_main/production, `other-integration`: int_other/sandbox): each
 * connection's sync opens its own cases; the queue, a case, a case's work and the search answer the connection the
 * call names and nothing of another's; a verification event is filed under the connection whose key reads it. On
 * PGlite and on PostgreSQL: the scoping is in the queries, which each database must answer alike.
 */

describeEachDatabase("records kept about verifications, under two connections and more, on $name", (kind) => {
  const h = withPartnersHarness(SCOPE_ENV, { kind });
  const { reviewIds, queueIds, syncAll } = scopeHelpers(h);

  it("each connection's sync opens its own cases, and its queue lists those alone", async () => {
    await syncAll();
    const rows = await h.db.db.select({ publicId: cases.publicId, connectionId: cases.connectionId }).from(cases);
    for (const connection of CONNECTIONS) {
      const inReview = await reviewIds(connection);
      const listed = await queueIds(connection);
      expect(inReview.length, `${connection} has verifications in review`).toBeGreaterThan(0);
      expect(listed.length, `${connection}'s queue`).toBeGreaterThan(0);
      // Every case listed is one of this connection's verifications, and stored under it.
      expect(
        listed.filter((id) => !inReview.includes(id)),
        `${connection}: cases of another connection`,
      ).toEqual([]);
      const stored = new Map(rows.map((row) => [row.publicId, row.connectionId]));
      expect(listed.filter((id) => stored.get(id) !== connection)).toEqual([]);
    }
    const [sandbox, production] = [await queueIds("primary"), await queueIds("production")];
    expect(sandbox.filter((id) => production.includes(id))).toEqual([]);
  });

  it("the overview counts each connection's own open cases", async () => {
    await syncAll();
    const range = { start: new Date(Date.now() - 86_400_000), end: new Date() };
    for (const connection of CONNECTIONS) {
      const stored = await h.db.db.$count(cases, and(eq(cases.connectionId, connection), eq(cases.status, "open")));
      expect(stored, connection).toBeGreaterThan(0);
      expect((await caseFigures(h.db.db, connection, range)).open, connection).toBe(stored);
    }
  });

  it("a second full sync of one connection closes none of another's cases", async () => {
    await syncAll();
    const before = await queueIds("production");
    const again = await SYNC(h.request(`${ORIGIN}/api/cases/sync?connection=primary`, { method: "POST", cookie: h.adminCookie }), noParams);
    expect(((await json(again)) as { ran: boolean }).ran).toBe(true);
    expect(await queueIds("production")).toEqual(before);
  });

  it("a case of another connection is no case here: not read, not assigned, no note", async () => {
    await syncAll();
    const [theirs] = await queueIds("production");
    const read = async (connection: string) =>
      json<{ case: { publicId: string } | null }>(
        await ONE_CASE(h.request(`${ORIGIN}/api/cases/${theirs}?connection=${connection}`, { cookie: h.adminCookie }), withId(theirs!)),
      );
    expect((await read("production")).case?.publicId).toBe(theirs);
    expect((await read("primary")).case).toBeNull();

    const assign = (connection: string) =>
      ASSIGN(
        h.request(`${ORIGIN}/api/cases/${theirs}/assignment?connection=${connection}`, {
          method: "POST",
          cookie: h.adminCookie,
          body: { assignee: "me" },
        }),
        withId(theirs!),
      );
    expect((await assign("primary")).status).toBe(404);
    const note = await NOTE(
      h.request(`${ORIGIN}/api/cases/${theirs}/notes?connection=other-integration`, {
        method: "POST",
        cookie: h.adminCookie,
        body: { text: "Not here." },
      }),
      withId(theirs!),
    );
    expect(note.status).toBe(404);
    // Under its own connection the same call works: the refusals above were the connection's, not the case's.
    expect((await assign("production")).status).toBe(200);
    const [row] = await h.db.db.select({ assigneeId: cases.assigneeId }).from(cases).where(eq(cases.publicId, theirs!));
    expect(row?.assigneeId).toBe(h.adminId);
  });

  it("the live stream of a connection carries its own cases' changes, not another's", async () => {
    await syncAll();
    const [theirs] = await queueIds("other-integration");
    const open = async (connection: string) => {
      const abort = new AbortController();
      const response = await STREAM(
        new Request(h.request(`${ORIGIN}/api/events/stream?connection=${connection}`, { cookie: h.adminCookie }), { signal: abort.signal }),
        noParams,
      );
      expect(response.status).toBe(200);
      return { reader: response.body!.getReader(), abort };
    };
    const [here, there] = [await open("primary"), await open("other-integration")];
    const assigned = await ASSIGN(
      h.request(`${ORIGIN}/api/cases/${theirs}/assignment?connection=other-integration`, {
        method: "POST",
        cookie: h.adminCookie,
        body: { assignee: "me" },
      }),
      withId(theirs!),
    );
    expect(assigned.status).toBe(200);
    // What a stream sent within `ms` (or until it named the case).
    const read = async ({ reader, abort }: { reader: ReadableStreamDefaultReader<Uint8Array>; abort: AbortController }, ms: number) => {
      let text = "";
      const until = Date.now() + ms;
      while (Date.now() < until && !text.includes(theirs!)) {
        const next = await Promise.race([
          reader.read(),
          new Promise<null>((resolve) => setTimeout(() => resolve(null), until - Date.now())),
        ]);
        if (!next || next.done) break;
        text += new TextDecoder().decode(next.value);
      }
      abort.abort();
      return text;
    };
    expect(await read(there, 10_000)).toContain(`"publicId":"${theirs}"`);
    // Sent to the other connection's stream by now: this one, open as long, would have it too.
    expect(await read(here, 1_000)).not.toContain(theirs);
  });

  it("the trail records the connection of each event, filters by it, and stays one chain", async () => {
    await syncAll();
    const [theirs] = await queueIds("production");
    const assigned = await ASSIGN(
      h.request(`${ORIGIN}/api/cases/${theirs}/assignment?connection=production`, {
        method: "POST",
        cookie: h.adminCookie,
        body: { assignee: "me" },
      }),
      withId(theirs!),
    );
    expect(assigned.status).toBe(200);
    const events = async (query: string) =>
      (
        await json<{ events: Array<{ action: string; target: string | null; outcome: string; connectionId: string | null }> }>(
          await AUDIT(h.request(`${ORIGIN}/api/audit?limit=200${query}`, { cookie: h.adminCookie }), noParams),
        )
      ).events;
    const production = await events("&in_connection=production");
    expect(production.some((event) => event.action === "case.assign" && event.target === theirs)).toBe(true);
    expect(production.every((event) => event.connectionId === "production")).toBe(true);
    // Under the sandbox only the refused attempts of the earlier test (made there), never the assignment itself.
    const sandbox = (await events("&in_connection=primary")).filter((event) => event.target === theirs && event.action === "case.assign");
    expect(sandbox.every((event) => event.outcome !== "success" && event.connectionId === "primary")).toBe(true);
    // Every connection's events, and those of none, in one chain that verifies.
    expect((await verifyAuditChain(h.db.db)).ok).toBe(true);
  });

  it("the search answers the connection's own index entries only", async () => {
    await syncAll();
    const search = async (connection: string, body: Record<string, unknown>) =>
      json<{ hits: Array<{ publicId: string }> }>(
        await SEARCH(h.request(`${ORIGIN}/api/search?connection=${connection}`, { method: "POST", cookie: h.adminCookie, body }), noParams),
      );
    // The sync indexed the sandbox key's verifications, their CPFs as keyed hashes: found under primary only.
    const listed = await LIST(
      h.request(`${ORIGIN}/api/verifications?status=review&per_page=5&connection=primary`, { cookie: h.adminCookie }),
    );
    const [first] = (await json<{ items: Array<{ publicId: string; document: string; documentMasked: boolean }> }>(listed)).items;
    expect(first?.documentMasked).toBe(false);
    const cpf = first!.document.replace(/\D/g, "");
    expect((await search("primary", { cpf })).hits.map((hit) => hit.publicId)).toContain(first!.publicId);
    expect((await search("production", { cpf })).hits.map((hit) => hit.publicId)).not.toContain(first!.publicId);
  });

  it("files a verification event under the connection whose key reads the verification", async () => {
    const [theirs] = await reviewIds("other-integration");
    const [ours] = await reviewIds("primary");
    await h.sandbox.clearRequests();
    for (const publicId of [theirs!, ours!]) {
      const received = await RECEIVE(
        webhookRequest(flatEvent(publicId, { status: "review", ref_id: `scope-${publicId.slice(0, 8)}` })),
        noParams,
      );
      expect(received.status).toBeLessThan(300);
    }
    // The receiver has started processing in the background (kickWebhookProcessor); a pass of our own would skip the
    // delivery that run holds locked and return before it commits. Kicking again waits for that run and one more pass.
    await kickWebhookProcessor();
    // Each connection was asked once for the verification whose owner no earlier event named, and the case the event
    // opened was made from the owner's answer: no second read of it.
    const reads = (await h.sandbox.requests()).filter((request) => request.method === "GET" && request.path.endsWith(`/${theirs!}`));
    expect(reads).toHaveLength(CONNECTIONS.length);
    const filed = async (publicId: string) =>
      (
        await h.db.db
          .select({ connectionId: verificationEvents.connectionId })
          .from(verificationEvents)
          .where(eq(verificationEvents.publicId, publicId))
      ).map((row) => row.connectionId);
    expect(await filed(theirs!)).toEqual(["other-integration"]);
    expect(await filed(ours!)).toEqual(["primary"]);
    // The case the event opened (its verification is in review) is the other integration's, listed there only.
    expect(await queueIds("other-integration")).toContain(theirs);
    expect(await queueIds("primary")).not.toContain(theirs);
  });
});
