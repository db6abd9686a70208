import { z } from "zod";

import { MAX_DAILY_BUDGET, MAX_RUN_LIMIT } from "./rules";

/* The monitoring routes' inputs (zod: routes only; the form's checks are plain functions in ./rules.ts). */

/** POST /api/monitoring/run: optionally, at most this many people now (the budget decides when it is lower). */
export const runSchema = z
  .object({
    limit: z
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(MAX_RUN_LIMIT, `must be at most ${MAX_RUN_LIMIT}`)
      .optional(),
  })
  .strict()
  .optional();

/** PUT /api/monitoring/settings: the daily budget of upstream calls. */
export const budgetSchema = z
  .object({
    dailyBudget: z
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be 0 or more")
      .max(MAX_DAILY_BUDGET, `must be at most ${MAX_DAILY_BUDGET}`),
  })
  .strict();

export const alertIdParams = z.object({ id: z.uuid("must be an alert id") });

export const alertListSchema = z
  .object({
    status: z.enum(["open", "closed"], { message: "must be open or closed" }).default("open"),
    queue_id: z.uuid("must be a queue id").optional(),
  })
  .strict();

/** POST /api/monitoring/alerts/:id/assignment: `me` (the default: take it) or a member's id (cases.assign). */
export const alertAssignmentSchema = z
  .object({ assignee: z.union([z.literal("me"), z.uuid("must be me or a staff id")]).default("me") })
  .strict()
  .optional();

export const alertOutcomeSchema = z
  .object({ outcome: z.enum(["cleared", "confirmed"], { message: "must be cleared or confirmed" }) })
  .strict();
