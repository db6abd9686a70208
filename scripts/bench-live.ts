/*
 * Live updates' figures (issue 23), `npm run bench:live`; a benchmark, not a test. On PGlite (in memory) and,
 * when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, on a PostgreSQL database of its own (created and
 * dropped here), with the publisher and the streams on two handles of it (two "instances"):
 *
 *   - events per second the stream carries on one instance: BENCH_LIVE_EVENTS events published by 8 publishers at once,
 *     read by BENCH_LIVE_STREAMS open streams (each filters by the member's permissions, as in production);
 *   - the time from a webhook's arrival (signature checked, delivery stored, as the receiver does) through
 *     its processing (the event recorded, `verification.changed` published on commit) to an open stream
 *     writing its frame: median and p95 of BENCH_LIVE_WEBHOOKS deliveries, one at a time.
 *
 * A page then reads the changed data again (one GET), which this does not count. Prints a table.
 */
import { randomBytes } from "node:crypto";

import { PGlite } from "@electric-sql/pglite";

import { withScratchDatabase } from "./bench-database";

const EVENTS = Number(process.env.BENCH_LIVE_EVENTS ?? 2_000);
const STREAMS = Number(process.env.BENCH_LIVE_STREAMS ?? 10);
const WEBHOOKS = Number(process.env.BENCH_LIVE_WEBHOOKS ?? 100);
const PUBLISHERS = 8;

process.env.WEBHOOK_SIGNING_SECRET ??= `bench-live-${randomBytes(16).toString("hex")}`;

interface Row {
  database: string;
  measure: string;
  value: string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;

async function run(
  label: string,
  openPublisher: () => Promise<Handle>,
  openReader: (publisher: Handle) => Promise<Handle>,
): Promise<Row[]> {
  const { publishLive } = await import("@/lib/db/live");
  const { liveStream } = await import("@/lib/api/live-stream");
  const { receiveDelivery } = await import("@/lib/webhooks/server/receive");
  const { processPendingDeliveries } = await import("@/lib/webhooks/server/processor");
  const { signWebhook } = await import("@/lib/webhooks/server/signature");
  const { config } = await import("@/lib/config");
  const { setLogSink } = await import("@/lib/log");
  setLogSink(() => undefined);

  const publisher = await openPublisher();
  const reader = await openReader(publisher);
  const user = { id: "bench", permissions: ["cases.read", "verifications.read"], sessionId: "bench", awaiting: null };
  const streams: { abort: AbortController; seen: Map<string, number>; frames: number }[] = [];
  const waiters = new Map<string, () => void>();
  for (let index = 0; index < STREAMS; index += 1) {
    const abort = new AbortController();
    const entry = { abort, seen: new Map<string, number>(), frames: 0 };
    streams.push(entry);
    const stream = liveStream({
      handle: reader as never,
      user: user as never,
      connectionId: "primary",
      lastEventId: null,
      signal: abort.signal,
      stillSignedIn: async () => user as never,
    });
    const decoder = new TextDecoder();
    void (async () => {
      const iterator = stream.getReader();
      for (;;) {
        const { value, done } = await iterator.read();
        if (done) return;
        const text = decoder.decode(value);
        for (const frame of text.split("\n\n")) {
          if (!frame.startsWith("id:")) continue;
          entry.frames += 1;
          const mark = /"publicId":"([^"]+)"/.exec(frame)?.[1];
          if (mark && index === 0) waiters.get(mark)?.();
        }
      }
    })();
  }
  // Let every listener connect.
  await new Promise((resolve) => setTimeout(resolve, 500));

  // Throughput: EVENTS published back to back; done when every stream wrote all of them.
  const started = performance.now();
  // PUBLISHERS at once, as several requests and jobs of an instance would.
  let next = 0;
  await Promise.all(
    Array.from({ length: PUBLISHERS }, async () => {
      while (next < EVENTS) {
        const index = next++;
        await publishLive(publisher.db as never, { topic: "case.assigned", payload: { publicId: `bench-${index}` } });
      }
    }),
  );
  const published = performance.now();
  const deadline = Date.now() + 60_000;
  while (streams.some((entry) => entry.frames < EVENTS) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  const carried = performance.now();
  const delivered = Math.min(...streams.map((entry) => entry.frames));

  // Latency: a signed webhook arrives, is stored, processed; the first stream writes its frame.
  const secret = config().webhooks.signing!.current.secret;
  const settings = config().webhooks;
  const latencies: number[] = [];
  for (let index = 0; index < WEBHOOKS; index += 1) {
    const publicId = `bench-webhook-${randomBytes(6).toString("hex")}`;
    const body = JSON.stringify({
      event: "verification.updated",
      verification_id: publicId,
      ref_id: "bench",
      status: "review",
      occurred_at: new Date().toISOString(),
    });
    const heard = new Promise<void>((resolve) => waiters.set(publicId, resolve));
    const arrival = performance.now();
    await receiveDelivery(publisher.db as never, {
      rawBody: body,
      headers: new Headers({ [settings.signatureHeader]: signWebhook(secret, body), [settings.deliveryHeader]: `bench-${publicId}` }),
      ip: null,
    });
    await processPendingDeliveries(publisher.db as never);
    await Promise.race([heard, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    latencies.push(performance.now() - arrival);
    waiters.delete(publicId);
  }
  latencies.sort((a, b) => a - b);

  streams.forEach((entry) => entry.abort.abort());
  if (reader !== publisher) await reader.close();
  await publisher.close();
  const seconds = (carried - started) / 1000;
  return [
    {
      database: label,
      measure: `events published (${PUBLISHERS} publishers at once)`,
      value: `${EVENTS} in ${(published - started).toFixed(0)} ms`,
    },
    {
      database: label,
      measure: `events/s carried to each of ${STREAMS} streams`,
      value: `${(delivered / seconds).toFixed(0)} (${(delivered * STREAMS).toLocaleString("en")} frames in ${seconds.toFixed(2)} s)`,
    },
    {
      database: label,
      measure: `webhook arrival → stream frame, median (${WEBHOOKS})`,
      value: `${percentile(latencies, 0.5).toFixed(1)} ms`,
    },
    { database: label, measure: `webhook arrival → stream frame, p95`, value: `${percentile(latencies, 0.95).toFixed(1)} ms` },
  ];
}

interface Handle {
  db: unknown;
  close(): Promise<void>;
}

async function main() {
  const { createDatabase } = await import("@/lib/db/client");
  const rows: Row[] = [];
  rows.push(
    ...(await run(
      "pglite",
      () => createDatabase({ pglite: new PGlite() }),
      async (publisher) => publisher,
    )),
  );
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    rows.push(
      ...(await withScratchDatabase(adminUrl, (url) =>
        run(
          "postgres (two instances)",
          () => createDatabase({ url }),
          () => createDatabase({ url }),
        ),
      )),
    );
  }
  const widths = [24, 46, 40];
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join(" | ");
  console.log(line(["database", "measure", "value"]));
  console.log(widths.map((width) => "-".repeat(width)).join("-|-"));
  for (const row of rows) console.log(line([row.database, row.measure, row.value]));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
