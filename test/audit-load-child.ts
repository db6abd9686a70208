// A writer process for lib/audit-trail/server/group-commit.test.ts: appends audit events through the
// application's own writer (record() -> the process's group commit) against DATABASE_URL, 50 in flight at
// all times, and prints each event's id on its own line once record() has resolved, i.e. once the event
// is acknowledged as durable. The test kills this process without warning and then looks for every id.
import { recordEvent as record } from "@/lib/audit-trail/server/record";

const IN_FLIGHT = 50;
let index = 0;

async function writer(): Promise<never> {
  for (;;) {
    const { id } = await record({
      actor: { id: "9f1c2f3e-7d8a-4b5c-9e0f-1a2b3c4d5e6f", email: "load@example.com" },
      action: "verification.list",
      outcome: "success",
      details: { index: (index += 1) },
    });
    process.stdout.write(`${id}\n`);
  }
}

await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
