import "server-only";

import { AppError } from "@/lib/shared/errors";
import { querySchemaFromParser } from "@/lib/shared/from-parser";
import { parseVerificationFilters, type InputProblem } from "@/lib/verifications/rules";

/** A 400 naming every refused parameter or field, in the error model's shape (`fields` + a readable message). */
export function inputError(problems: InputProblem[]): AppError {
  const message = `Invalid input: ${problems.map((problem) => `${problem.field}: ${problem.message}`).join("; ")}.`;
  return new AppError("validation", message, { fields: problems.map((problem) => problem.field) });
}

/** The list's filters as a route's query (GET /api/verifications and its export): read once, by the page's own parser. */
export const filtersQuerySchema = querySchemaFromParser((params) => {
  const parsed = parseVerificationFilters(params);
  return parsed.ok ? { ok: true, value: parsed.filters } : parsed;
});
