/*
 * Counters whose values are never handed out twice, even across restarts: the dashboard's database
 * outlives the sandbox, and a second integration with id 3 would collide with the one it already holds.
 * Each allocation is written to `<dataDir>/ids.json` (write to a temporary file, then rename, so a crash
 * leaves the old or the new file, never half of one) before the id is returned.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export type CounterName = "integration" | "person";

const FLOOR: Record<CounterName, number> = {
  // 1, 2 and 3 are the seeded integrations.
  integration: 4,
  person: 1001,
};

export class IdCounters {
  private readonly file: string;
  private next: Record<CounterName, number>;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.file = path.join(dataDir, "ids.json");
    this.next = { integration: FLOOR.integration, person: FLOOR.person };
    try {
      const saved = JSON.parse(readFileSync(this.file, "utf8")) as Partial<Record<CounterName, unknown>>;
      for (const name of ["integration", "person"] as const) {
        const value = saved[name];
        if (typeof value === "number" && Number.isSafeInteger(value) && value > this.next[name]) this.next[name] = value;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new Error(`cannot read ${this.file}: ${(error as Error).message}`);
    }
  }

  /** The next value, persisted before it is returned. */
  take(name: CounterName): number {
    const value = this.next[name];
    this.next = { ...this.next, [name]: value + 1 };
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.next));
    renameSync(temporary, this.file);
    return value;
  }
}
