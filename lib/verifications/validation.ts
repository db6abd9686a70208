import { z } from "zod";

import { PUBLIC_ID_PATTERN } from "@/lib/upstream/model/verification-query";

import { type InputProblem } from "./rules";

// Server side: the verification rules of verifications.ts as zod pieces (route params, the upstream client),
// and the zod issues → named problems mapping the server's other query parsers share.

export const publicIdSchema = z.string().regex(PUBLIC_ID_PATTERN, "must be a verification id (letters, digits, _ or -)");

/**
 * One problem per field of a failed parse. zod reports unknown keys as one issue at the root; they are
 * split here so each unknown parameter is named. Array positions are dropped (`status.0` → `status`).
 */
export function problemsOf(error: z.ZodError): InputProblem[] {
  const problems: InputProblem[] = [];
  for (const issue of error.issues) {
    const base = issue.path.filter((part) => typeof part === "string").join(".");
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        problems.push({ field: base ? `${base}.${key}` : key, message: "is not accepted", code: "not_accepted" });
      continue;
    }
    const field = base || "(input)";
    if (!problems.some((problem) => problem.field === field)) problems.push({ field, message: issue.message });
  }
  return problems;
}
