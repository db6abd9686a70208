import { expect } from "vitest";

/** Resolves when the statement was refused by the append-only trigger (drizzle wraps the database's error as its cause). */
export async function refused(statement: Promise<unknown>): Promise<void> {
  const error = await statement.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error, "the database accepted the statement").toBeInstanceOf(Error);
  const messages = [(error as Error).message, ((error as Error).cause as Error | undefined)?.message ?? ""].join(" | ");
  expect(messages).toMatch(/append-only: (UPDATE|DELETE|TRUNCATE) refused/);
}
