// Watches the job leases of the cluster's database (job_leases): every run of a job, on whichever instance, sets its
// lease's last_started_at, so each new value seen is one run, with the instance's holder id.
import pg from "pg";

export interface JobRun {
  job: string;
  startedAt: number;
  holder: string | null;
}

export interface JobWatch {
  runs: JobRun[];
  stop(): Promise<void>;
}

export function watchJobs(databaseUrl: string, jobs: string[]): JobWatch {
  const runs: JobRun[] = [];
  const seen = new Map<string, number>();
  const client = new pg.Client({ connectionString: databaseUrl });
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const { rows } = await client.query<{ name: string; last_started_at: Date | null; holder: string | null }>(
        "select name, last_started_at, holder from job_leases where name = any($1)",
        [jobs],
      );
      for (const row of rows) {
        const startedAt = row.last_started_at?.getTime();
        if (startedAt === undefined || seen.get(row.name) === startedAt) continue;
        seen.set(row.name, startedAt);
        runs.push({ job: row.name, startedAt, holder: row.holder });
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    runs,
    async stop() {
      running = false;
      await loop.catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}
