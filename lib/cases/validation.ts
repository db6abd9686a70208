import { z } from "zod";

import {
  AGE_BUCKETS,
  COMMENT_MAX_CHARS,
  NOTE_MAX_CHARS,
  outcomeProblems,
  QUEUE_SORTS,
  QUEUES,
  REASON_CODES,
  RECOMMENDATIONS,
  RED_FLAGS,
  type OutcomeProblem,
} from "@/lib/cases/rules";
import { TAKE_MODES } from "@/lib/cases/take-mode";
import { isValidCpf } from "@/lib/shared/cpf";
import { refuseUnsafeText } from "@/lib/shared/safe-text-schema";

// Input of the case API, shared by the forms and the route handlers (lib/cases/server, app/api/cases).

// Notes and comments are plain text, capped (lib/cases/rules.ts, which the case panel imports without
// zod); control characters other than newline and tab are refused, and so are bidirectional controls and
// zero-width characters (lib/shared/safe-text.ts), which would make the text read as something else.
export { COMMENT_MAX_CHARS, NOTE_MAX_CHARS };
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const plainText = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !CONTROL.test(value), "must not hold control characters")
    .check(refuseUnsafeText());

// The queue's filters and sort, one definition for the queue's list and a case's next/previous in that queue.
const queueFilterShape = {
  queue: z.enum(QUEUES).default("open"),
  sort: z.enum(QUEUE_SORTS).default("age"),
  flag: z.enum(RED_FLAGS).optional(),
  // Open queues: past the due time now; the closed queue: closed after the due time.
  overdue: z.enum(["true", "false"]).optional(),
  age: z.enum(AGE_BUCKETS).optional(),
  // Closed in [closed_from, closed_to): the overview's period, as instants.
  closed_from: z.iso.datetime({ offset: true, message: "must be an ISO date-time" }).optional(),
  closed_to: z.iso.datetime({ offset: true, message: "must be an ISO date-time" }).optional(),
  disagreement: z.enum(["true", "false"]).optional(),
  // One routing queue (issue 23; lib/cases/server/routing.ts); absent: every queue.
  queue_id: z.uuid("must be a queue id").optional(),
};

export const queueQuerySchema = z
  .object({
    ...queueFilterShape,
    page: z.coerce.number().int("must be a whole number").min(1).max(10_000).default(1),
    per_page: z.coerce.number().int("must be a whole number").min(1).max(200).default(50),
  })
  .strict()
  // Written so an unreadable date (already refused above) is not refused twice.
  .refine((query) => !query.closed_from || !query.closed_to || !(Date.parse(query.closed_to) <= Date.parse(query.closed_from)), {
    path: ["closed_to"],
    message: "must be after closed_from",
  });
export type QueueQuery = z.infer<typeof queueQuerySchema>;

/** GET /api/cases/{publicId}: the queue the case is read in, for its next and previous (no page: the whole queue). */
export const caseContextSchema = z.object(queueFilterShape).strict();
export type CaseContextQuery = z.infer<typeof caseContextSchema>;

/** `me`, a staff id (admins only), or null to unassign. */
export const assignmentSchema = z.object({ assignee: z.union([z.literal("me"), z.uuid("must be a staff id"), z.null()]) }).strict();

export const noteSchema = z
  .object({
    text: plainText(NOTE_MAX_CHARS).refine((value) => value.trim() !== "", "must not be empty"),
  })
  .strict();

const OUTCOME_MESSAGES: Record<OutcomeProblem["code"], string> = {
  reasons_required: "must name at least one reason",
  reason_not_for_recommendation: "must be reasons for this recommendation (GET /api/cases/reasons lists each reason's recommendations)",
  comment_required: "must say why: a reprove needs a comment",
};

export const outcomeSchema = z
  .object({
    recommendation: z.enum(RECOMMENDATIONS),
    reasons: z.array(z.enum(REASON_CODES)).min(1, "must name at least one reason").max(REASON_CODES.length),
    comment: plainText(COMMENT_MAX_CHARS).default(""),
  })
  .strict()
  // The same rule the form applies before sending (lib/cases/rules.ts outcomeProblems).
  .superRefine((value, context) => {
    for (const problem of outcomeProblems(value)) {
      if (problem.code === "reasons_required") continue; // already said by .min(1)
      context.addIssue({ code: "custom", path: [problem.field], message: OUTCOME_MESSAGES[problem.code] });
    }
  });
export type OutcomeInput = z.infer<typeof outcomeSchema>;

export const confirmationSchema = z
  .object({
    agree: z.boolean(),
    comment: plainText(COMMENT_MAX_CHARS).default(""),
  })
  .strict()
  .refine((value) => value.agree || value.comment.trim() !== "", { message: "must say why when disagreeing", path: ["comment"] });
export type ConfirmationInput = z.infer<typeof confirmationSchema>;

// Input of POST /api/search, shared by the search form and the route handler.

/** Exactly one of ref_id or cpf; the CPF travels in this body, never in a URL. */
export const searchSchema = z.union([
  z.object({ ref_id: z.string().trim().min(1, "must not be empty").max(200) }).strict(),
  z.object({ cpf: z.string().refine(isValidCpf, "must be a valid CPF") }).strict(),
]);
export type SearchInput = z.infer<typeof searchSchema>;

// Input of POST /api/cases/{publicId}/reverification, shared by its dialog and the route handler.

/**
 * The document to verify again: left out when the service shows this verification's document unmasked (the
 * server uses it); typed by the analyst otherwise, and then checked against the verification's before any call.
 */
export const reverificationSchema = z
  .object({
    document: z
      .object({
        type: z.literal("cpf", { error: "must be cpf" }),
        number: z.string().max(64, "must be at most 64 characters").refine(isValidCpf, "must be a valid CPF"),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ReverificationInput = z.infer<typeof reverificationSchema>;

/** PUT /api/cases/settings: the team's take mode (lib/cases/take-mode.ts). */
export const takeSettingsSchema = z
  .object({ takeMode: z.enum(TAKE_MODES, { message: `must be one of ${TAKE_MODES.join(", ")}` }) })
  .strict();
