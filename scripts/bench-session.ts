// The analyst-session benchmark (`npm run bench -- session`; not a test: it reports figures): upstream calls per
// case worked, read from the dashboard's own counters (GET /api/upstream/calls, lib/upstream/call-count.ts).
//
// A scripted analyst works BENCH_SESSION_CASES cases (default 5) of the open queue, making the requests the
// browser makes for each: the queue page, the case page (its server render reads the verification), the case
// panel, the images' tokens and then every image at once (as a page's <img> tags load), the same-person panel,
// assign to me, a note, a recommendation, then the next case the panel names. Before it, an admin's full sync
// fills the queue (a job: its calls are not the session's). Calls of jobs (the scheduled sync, events) during the
// session are left out of the per-case figure; the note names what the session's calls were spent on.
//
//   BENCH_SESSION_CASES=10 npm run bench -- session
import type { BenchRow } from "./bench";
import { DEMO, fetchText, progress, signIn, withSystem } from "./bench-system";

const suite = "session";
const CASES = Number(process.env.BENCH_SESSION_CASES ?? 5);

interface CallsReport {
  rows: Array<{ source: string; kind: string; today: number; week: number }>;
}

/** The week's counts per source and kind, as admins see them (the answering instance writes its own first). */
async function counts(base: string, cookie: string): Promise<Map<string, number>> {
  const report = JSON.parse(await fetchText(`${base}/api/upstream/calls`, { headers: { cookie } })) as CallsReport;
  return new Map(report.rows.map((row) => [`${row.source} → ${row.kind}`, row.week]));
}

function difference(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  const spent = new Map<string, number>();
  for (const [key, value] of after) if (value - (before.get(key) ?? 0) > 0) spent.set(key, value - (before.get(key) ?? 0));
  return spent;
}

export default async function benchSession(): Promise<BenchRow[]> {
  return withSystem(suite, async ({ base }) => {
    const admin = await signIn(base, DEMO.admin);
    const analyst = await signIn(base, DEMO.analyst);
    const headers = (cookie: string) => ({ cookie, origin: base, "content-type": "application/json" });
    const get = (path: string) => fetchText(`${base}${path}`, { headers: { cookie: analyst.header } });
    const post = (path: string, body: unknown) =>
      fetchText(`${base}${path}`, { method: "POST", headers: headers(analyst.header), body: JSON.stringify(body) });

    progress(suite, "filling the queue (an admin's sync)…");
    await fetchText(`${base}/api/cases/sync`, { method: "POST", headers: headers(admin.header) });
    const reasons = JSON.parse(await get("/api/cases/reasons")) as { reasons: Array<{ code: string; recommendations: string[] }> };
    const approveReason = reasons.reasons.find((reason) => reason.recommendations.includes("approve"))!.code;

    const before = await counts(base, admin.header);
    progress(suite, `working ${CASES} cases…`);
    await get("/cases");
    const queue = JSON.parse(await get("/api/cases?queue=open&sort=age")) as { items: Array<{ publicId: string }> };
    let current: string | null = queue.items[0]?.publicId ?? null;
    if (!current) throw new Error("the open queue is empty: nothing to work");
    let worked = 0;
    let images = 0;
    while (current && worked < CASES) {
      const id = encodeURIComponent(current);
      await get(`/verifications/${id}?cases=${encodeURIComponent("queue=open&sort=age")}`);
      const detail = JSON.parse(await get(`/api/cases/${id}?queue=open&sort=age`)) as { case: { next: string | null } | null };
      const media = JSON.parse(await get(`/api/verifications/${id}/media`)) as { items: Array<{ available: boolean; src?: string }> };
      const sources = media.items.flatMap((item) => (item.available && item.src ? [item.src] : []));
      await Promise.all(sources.map((src) => fetch(`${base}${src}`, { headers: { cookie: analyst.header } }).then((r) => r.arrayBuffer())));
      images += sources.length;
      await get(`/api/verifications/${id}/related`);
      await post(`/api/cases/${id}/assignment`, { assignee: "me" });
      await post(`/api/cases/${id}/notes`, { text: "Documents checked against the selfie (bench)." });
      await post(`/api/cases/${id}/outcome`, { recommendation: "approve", reasons: [approveReason], comment: "" });
      await get(`/api/cases/${id}?queue=open&sort=age`);
      worked += 1;
      current = detail.case?.next ?? null;
    }
    const spent = difference(await counts(base, admin.header), before);
    const session = [...spent].filter(([key]) => !key.startsWith("job:"));
    const total = session.reduce((sum, [, value]) => sum + value, 0);
    const breakdown = session
      .sort((a, b) => b[1] - a[1])
      .map(([key, value]) => `${key}: ${value}`)
      .join("; ");
    return [
      {
        suite,
        case: "upstream calls per case worked (queue, open, images, note, recommendation, next)",
        value: total / Math.max(1, worked),
        unit: "count",
        note: `${total} calls for ${worked} cases, ${images} images; goal ≤ 3. ${breakdown}`,
      },
    ];
  });
}
