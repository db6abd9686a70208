import { z } from "zod";

/**
 * A string field checked by one of the shared rules (which the forms run without zod): `read` yields the clean
 * value or names the problem, and a refusal carries the problem's message and its name (`params.problem`).
 * A value that is not a string gets the `required` message.
 */
export function ruleField<P extends string>(
  messages: Record<P, string> & { required: string },
  read: (value: string) => string | { problem: P },
) {
  return z.string({ error: messages.required }).transform((value, context) => {
    const result = read(value);
    if (typeof result === "string") return result;
    context.addIssue({ code: "custom", message: messages[result.problem], params: { problem: result.problem } });
    return z.NEVER;
  });
}
