import "server-only";

import { AppError } from "@/lib/shared/errors";
import type { InputProblem } from "@/lib/verifications/rules";

/** A 400 naming every refused parameter or field, in the error model's shape (`fields` + a readable message). */
export function inputError(problems: InputProblem[]): AppError {
  const message = `Invalid input: ${problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ")}.`;
  return new AppError("validation", message, { fields: problems.map((problem) => problem.field) });
}
