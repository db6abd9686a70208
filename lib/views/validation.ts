import { z } from "zod";

import { queueQuerySchema } from "@/lib/cases/validation";
import { safeText } from "@/lib/shared/safe-text-schema";
import { parseVerificationFilters } from "@/lib/verifications/rules";
import { splitListQuery } from "@/lib/verifications/sorting";

import { VIEW_NAME_MAX, VIEW_SCOPES, viewQueryOf, type ViewScope } from "./rules";

export { VIEW_SCOPES, type ViewScope } from "./rules";

// Input of the saved views' API (POST /api/views), shared with the "Save this view" dialog.

const QUERY_MAX = 1_000;

/** Why `query` is not the page's own query string (the first field it refuses), or null when it is. */
export function viewQueryProblem(scope: ViewScope, query: string): string | null {
  const params = new URLSearchParams(query);
  if (scope === "cases") {
    const parsed = queueQuerySchema.safeParse(Object.fromEntries(params));
    if (parsed.success) return null;
    const issue = parsed.error.issues[0];
    return `${issue?.path.join(".") || "query"}: ${issue?.message ?? "is not valid"}`;
  }
  const split = splitListQuery(params);
  if (split.sortInvalid) return "sort: is not valid";
  const parsed = parseVerificationFilters(split.filterParams);
  return parsed.ok ? null : `${parsed.problems[0]?.field ?? "query"}: ${parsed.problems[0]?.message ?? "is not valid"}`;
}

export const saveViewSchema = z
  .object({
    scope: z.enum(VIEW_SCOPES),
    name: safeText(z.string().trim().min(1, "is required").max(VIEW_NAME_MAX, `must be at most ${VIEW_NAME_MAX} characters`)),
    query: z
      .string()
      .max(QUERY_MAX, `must be at most ${QUERY_MAX} characters`)
      .transform((value) => viewQueryOf(value)),
  })
  .strict()
  .superRefine((input, context) => {
    const problem = viewQueryProblem(input.scope, input.query);
    if (problem) context.addIssue({ code: "custom", path: ["query"], message: `is not this page's query (${problem})` });
  });
export type SaveViewInput = z.infer<typeof saveViewSchema>;
