import { z } from "zod";

/*
 * Server side: a zod schema built on a plain parser (a rule module's `parse…` function, which the browser
 * runs as it is, without zod). The route kit and the CLIs keep taking zod schemas, the rule is written
 * once, and each problem stays named by its field (`document.number` → path ["document", "number"]).
 */

export type PlainParse<T> = (
  input: unknown,
) => { ok: true; value: T } | { ok: false; problems: ReadonlyArray<{ field: string; message: string }> };

export function schemaFromParser<T>(parse: PlainParse<T>) {
  return z.unknown().transform((input, context): T => {
    const parsed = parse(input);
    if (parsed.ok) return parsed.value;
    for (const problem of parsed.problems) {
      const path = problem.field === "(input)" ? [] : problem.field.split(".");
      context.addIssue({ code: "custom", path, message: problem.message, input });
    }
    return z.NEVER;
  });
}
