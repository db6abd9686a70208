// The proxy benchmark (run by `npm run bench`; not a test: it reports figures, it asserts nothing).
//
// What the dashboard's route handlers add to a call of the service: the sandbox's core API called
// directly, against the same call through GET /api/verifications?per_page=20 and
// GET /api/verifications/<id> with a signed-in session cookie (session check, input validation, the
// upstream call, the audit record, reshaping). Both sides are timed from this process with the same HTTP
// client (keep-alive), to the last byte of the body, in turns (direct, dashboard, direct, …) after a few
// warm-up calls. The overhead is the difference of the medians.
//
//   BENCH_PROXY_RUNS=100 npm run bench -- proxy
import type { BenchRow } from "./bench";
import { CORE_API_KEY, DEMO, fetchText, progress, sampleInTurns, signIn, someVerificationId, stats, withSystem } from "./bench-system";

const suite = "proxy";
const WARMUP = 5;
const RUNS = Number(process.env.BENCH_PROXY_RUNS ?? 50);

function fmt(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}

export default async function benchProxy(): Promise<BenchRow[]> {
  return withSystem(suite, async ({ base, sandbox }) => {
    const session = await signIn(base, DEMO.analyst);
    const id = await someVerificationId(base, session.header);
    const core = { headers: { "X-API-Key": CORE_API_KEY } };
    const dashboard = { headers: { cookie: session.header } };
    const rows: BenchRow[] = [];

    // The dashboard sends the page parameter even for page 1, so the direct call does too: same upstream work.
    const cases = [
      {
        name: "list (per_page=20)",
        direct: () => fetchText(`${sandbox}/core/public/validations-persons?per_page=20&page=1`, core),
        proxied: () => fetchText(`${base}/api/verifications?per_page=20`, dashboard),
      },
      {
        name: "detail",
        direct: () => fetchText(`${sandbox}/core/public/validations-persons/${encodeURIComponent(id)}`, core),
        proxied: () => fetchText(`${base}/api/verifications/${encodeURIComponent(id)}`, dashboard),
      },
    ];

    for (const { name, direct, proxied } of cases) {
      progress(suite, `${name}: ${WARMUP} warm-up + ${RUNS} calls each, sandbox direct and through the dashboard…`);
      const [directSamples, proxiedSamples] = await sampleInTurns([direct, proxied], { warmup: WARMUP, runs: RUNS });
      const a = stats(directSamples!);
      const b = stats(proxiedSamples!);
      const bytes = { direct: (await direct()).length, proxied: (await proxied()).length };
      rows.push(
        {
          suite,
          case: `${name}: sandbox direct, median`,
          value: a.median,
          unit: "ms",
          note: `p95 ${fmt(a.p95)}, n=${a.n}, ${(bytes.direct / 1024).toFixed(1)} KiB body`,
        },
        { suite, case: `${name}: sandbox direct, p95`, value: a.p95, unit: "ms", note: `max ${fmt(a.max)}` },
        {
          suite,
          case: `${name}: through /api/verifications, median`,
          value: b.median,
          unit: "ms",
          note: `p95 ${fmt(b.p95)}, n=${b.n}, ${(bytes.proxied / 1024).toFixed(1)} KiB body`,
        },
        { suite, case: `${name}: through /api/verifications, p95`, value: b.p95, unit: "ms", note: `max ${fmt(b.max)}` },
        {
          suite,
          case: `${name}: proxy overhead (median difference)`,
          value: b.median - a.median,
          unit: "ms",
          note: `session, validation, audit write, reshaping; p95 difference ${fmt(b.p95 - a.p95)}`,
        },
      );
    }
    return rows;
  });
}
