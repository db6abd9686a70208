import "server-only";

import { ApiError } from "@/lib/api/errors";
import type { InputProblem } from "@/lib/verifications/rules";

/** A 400 naming every refused parameter or field, in the error model's shape (`fields` + a readable message). */
export function inputError(problems: InputProblem[]): ApiError {
  const message = `Invalid input: ${problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ")}.`;
  return new ApiError("validation", message, { fields: problems.map((problem) => problem.field) });
}
