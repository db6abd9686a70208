import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";

import { describeEachDatabase, withDatabase } from "@/test/db";

import { droppedLogLines, log, MAX_RECENT_SECRETS, redact, redactText, registerRecentSecret, registerSecrets } from "./log";

// Opaque values with no token shape, so only the registered-secret pass can obscure them.
const opaque = (label: string) => `opaque-secret-value-${label}-end`;

describe("registered secrets", () => {
  it("obscures recent rotating secrets, and keeps only the most recent ones", () => {
    const first = opaque("rotating-0");
    registerRecentSecret(first);
    expect(redactText(`value ${first}`)).toBe("value [redacted]");
    for (let index = 1; index <= MAX_RECENT_SECRETS; index += 1) registerRecentSecret(opaque(`rotating-${index}`));
    // The oldest fell out of the bounded set; the newest is still obscured.
    expect(redactText(`value ${first}`)).toBe(`value ${first}`);
    expect(redactText(`value ${opaque(`rotating-${MAX_RECENT_SECRETS}`)}`)).toBe("value [redacted]");
  });

  it("never drops a configured secret, however many rotating ones arrive", () => {
    const configured = opaque("configured-password");
    registerSecrets(configured);
    for (let index = 0; index < MAX_RECENT_SECRETS * 2; index += 1) registerRecentSecret(opaque(`later-${index}`));
    expect(redactText(`password ${configured}`)).toBe("password [redacted]");
  });
});

describeEachDatabase("a failed query's error on $name", ({ open }) => {
  const handle = withDatabase(open);

  it("is logged with its statement and without the values it was sent", async () => {
    const value = "123.456.789-09 Maria Aparecida";
    const error = await handle.db.execute(sql`select ${value}::text as v where 1 / 0 = 1`).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error, "the query fails").toBeInstanceOf(Error);
    // What the database driver's wrapper says, as thrown: the values are there (so the test can fail).
    expect(`${(error as Error).message}`).toContain(value);
    const logged = JSON.stringify(redact(error));
    expect(logged).toContain("Failed query");
    expect(logged).toContain("select $1::text");
    expect(logged).not.toContain("123.456.789-09");
    expect(logged).not.toContain("Maria");
  });
});

describe("an output that cannot take a line", () => {
  it("counts the line dropped on that output alone", async () => {
    const before = { ...droppedLogLines() };
    const refused = vi.spyOn(process.stderr, "write").mockImplementation(((_line: string, done?: (error?: Error | null) => void) => {
      done?.(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      return false;
    }) as typeof process.stderr.write);
    try {
      log.warn("a_warning_nobody_reads");
      log.error("an_error_nobody_reads");
    } finally {
      refused.mockRestore();
    }
    expect(droppedLogLines()).toEqual({ stdout: before.stdout, stderr: before.stderr + 2 });
  });
});
