import "server-only";

import { log } from "@/lib/log";
import { metrics, secondsSince } from "@/lib/metrics/registry";

import { isDraining } from "./lifecycle";

/*
 * The background jobs' timers: one per job per process, started by instrumentation.ts through each job's own
 * `start…` function. A job wakes when its next run is due, as it says (`nextDueInMs`: for a leased job its lease's gap
 * measured from the last start, lib/db/leased-job.ts; for a queue its next item's retry time), and never sleeps
 * longer than `maxSleepMs`, so a run due at 12:00:00 starts within a second of it whichever instance takes it.
 * Before, every job looked on a fixed interval and a run due a few milliseconds after a look waited for the next
 * one: a one-minute sync ran about every 1.5 minutes.
 *
 * Looks of one job never overlap in a process (the next is scheduled when one ends); several instances are kept to
 * one run per schedule by the job's lease. Each look is counted by job and outcome (`kyc_job_runs_total`: ran, idle,
 * failed) and a run's duration observed. Draining (SIGTERM) starts no new look; `stopJobs` waits for those under way.
 */

export type JobOutcome = "ran" | "idle";

export interface JobSpec {
  /** The job's name in logs and metrics: one fixed name per job. */
  name: string;
  /** One look: "ran" when it did work, "idle" when nothing was due or another instance had it. */
  run: (look: { first: boolean }) => Promise<JobOutcome>;
  /** Milliseconds until the next run is due; undefined: look again after `maxSleepMs`. */
  nextDueInMs?: () => Promise<number | undefined>;
  /** The longest sleep between two looks (and the retry delay after a failed one). */
  maxSleepMs: number;
  /** Delay of the first look after start-up; default: at once. */
  firstLookMs?: number;
}

/** No busier than this, whatever a job says: a due time in the past keeps no timer spinning. */
const MIN_SLEEP_MS = 250;
/** Wakes this much after the due time, so the look finds the job due rather than a hair early. */
const WAKE_MARGIN_MS = 20;

interface Running {
  spec: JobSpec;
  timer: NodeJS.Timeout | null;
  look: Promise<void> | null;
  stopped: boolean;
  looks: number;
}

const slot = globalThis as typeof globalThis & { __kycJobs?: Map<string, Running> };
const jobs = (slot.__kycJobs ??= new Map());

/** Starts the job's timer once per process. */
export function startJob(spec: JobSpec): void {
  if (jobs.get(spec.name)?.stopped === false) return;
  const job: Running = { spec, timer: null, look: null, stopped: false, looks: 0 };
  jobs.set(spec.name, job);
  sleep(job, spec.firstLookMs ?? 0);
}

function sleep(job: Running, ms: number): void {
  if (job.stopped) return;
  job.timer = setTimeout(
    () => {
      job.timer = null;
      job.look = look(job).finally(() => (job.look = null));
    },
    Math.max(job.looks === 0 ? 0 : MIN_SLEEP_MS, ms),
  );
  job.timer.unref();
}

async function look(job: Running): Promise<void> {
  if (job.stopped || isDraining()) return;
  const { spec } = job;
  const started = performance.now();
  let outcome: JobOutcome | "failed";
  try {
    outcome = await spec.run({ first: job.looks === 0 });
  } catch (error) {
    outcome = "failed";
    log.warn("job_failed", { job: spec.name, error: error instanceof Error ? error.name : "Error" });
  }
  job.looks += 1;
  metrics().jobRuns.inc({ job: spec.name, outcome });
  if (outcome === "ran") metrics().jobDuration.observe({ job: spec.name }, secondsSince(started));
  let next = spec.maxSleepMs;
  if (outcome !== "failed" && spec.nextDueInMs) {
    try {
      const due = await spec.nextDueInMs();
      if (due !== undefined) next = Math.min(next, due + WAKE_MARGIN_MS);
    } catch (error) {
      log.warn("job_due_unknown", { job: spec.name, error: error instanceof Error ? error.name : "Error" });
    }
  }
  sleep(job, next);
}

/** Stops every job's timer and waits for the looks under way (a graceful shutdown). */
export async function stopJobs(): Promise<void> {
  for (const job of jobs.values()) {
    job.stopped = true;
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
  }
  await Promise.all([...jobs.values()].map((job) => job.look));
}
