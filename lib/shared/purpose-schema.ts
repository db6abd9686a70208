import { z } from "zod";

import { MAX_PURPOSE_LENGTH, MIN_PURPOSE_LENGTH, purposeProblem, type PurposeProblem } from "./purpose";
import { UNSAFE_TEXT_MESSAGE } from "./safe-text";

// Server side: the purpose rule (purpose.ts) as a zod field, for the lookup and KYC routes.

const PURPOSE_MESSAGES: Record<PurposeProblem, string> = {
  required: "Purpose is required",
  too_short: `Purpose must be at least ${MIN_PURPOSE_LENGTH} characters`,
  too_long: `Purpose must be at most ${MAX_PURPOSE_LENGTH} characters`,
  invisible: `Purpose ${UNSAFE_TEXT_MESSAGE}`,
};

/** The reason for a lookup or a KYC session, kept in the audit trail. */
export const purposeSchema = z.string({ error: PURPOSE_MESSAGES.required }).transform((value, context) => {
  const problem = purposeProblem(value);
  if (problem) {
    context.addIssue({ code: "custom", message: PURPOSE_MESSAGES[problem], params: { problem } });
    return z.NEVER;
  }
  // One line: the audit trail and its CSV export stay readable.
  return value.trim().replace(/\s+/g, " ");
});
