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

/**
 * A route's query schema on a parser of the page's URL (it reads a URLSearchParams, as the page does): the route
 * kit's query record is turned back into one, so the API and the page read the same parameters the same way, and a
 * handler branches only on what this parser returned.
 */
export function querySchemaFromParser<T>(parse: (params: URLSearchParams) => ReturnType<PlainParse<T>>) {
  return schemaFromParser((input) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(input as Record<string, string | string[]>))
      for (const item of [value].flat()) params.append(key, item);
    return parse(params);
  });
}
