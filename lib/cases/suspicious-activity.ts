import { z } from "zod";

import { refuseUnsafeText } from "@/lib/shared/safe-text-schema";

import { COAF_GROUNDS, COAF_MAX_OPERATIONS, COAF_PROTOCOL_MAX_CHARS, COAF_SUMMARY_MAX_CHARS } from "./coaf";

/*
 * Suspicious-activity reports to COAF (Lei 9.613/1998 art. 11): the routes' input schemas (server only: zod never
 * reaches the browser; the grounds, limits and answer shared with it are in ./coaf.ts). Only members holding
 * `coaf.report` ever see any of it (art. 11 §2: the person is never told).
 */

const plain = (max: number, field: string) =>
  z
    .string({ error: `${field} is required` })
    .max(max, `${field} must be at most ${max} characters`)
    .check(refuseUnsafeText())
    .refine((value) => value.trim() !== "", `${field} must not be empty`);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const operationSchema = z.strictObject({
  date: z
    .string({ error: "must be a date YYYY-MM-DD" })
    .regex(DATE, "must be a date YYYY-MM-DD")
    .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)), "must be a date YYYY-MM-DD"),
  amount: z.number({ error: "must be a number" }).finite("must be a number").nonnegative("must not be negative"),
  description: plain(500, "Description"),
});

/** POST /api/cases/{publicId}/suspicious-activity: `{summary, grounds, operations?}`. */
export const openSuspiciousActivitySchema = z.strictObject({
  summary: plain(COAF_SUMMARY_MAX_CHARS, "Summary"),
  grounds: z
    .array(z.enum(COAF_GROUNDS, { error: `must be one of ${COAF_GROUNDS.join(", ")}` }), { error: "must be a list of grounds" })
    .min(1, "must name at least one ground")
    .transform((grounds) => [...new Set(grounds)]),
  operations: z.array(operationSchema, { error: "must be a list of operations" }).max(COAF_MAX_OPERATIONS).optional(),
});

export type OpenSuspiciousActivityInput = z.infer<typeof openSuspiciousActivitySchema>;

/** POST /api/suspicious-activity/{id}/filed: `{protocol, filedAt}` (the SISCOAF protocol and when it was filed). */
export const fileSuspiciousActivitySchema = z.strictObject({
  protocol: plain(COAF_PROTOCOL_MAX_CHARS, "Protocol").transform((value) => value.trim()),
  filedAt: z.iso
    .datetime({ offset: true, error: "must be a date and time with its offset (ISO 8601)" })
    .transform((value) => new Date(value))
    .refine((value) => value.getTime() <= Date.now() + 5 * 60_000, "must not be in the future"),
});

export type FileSuspiciousActivityInput = z.infer<typeof fileSuspiciousActivitySchema>;

/** The `{id}` of /api/suspicious-activity/{id}/…: a report's UUID (anything else is no report: 404). */
export const suspiciousActivityParamsSchema = z.object({ id: z.string() });

/** GET /api/suspicious-activity/{id}/dossier: `?format=json|pdf` (JSON by default). */
export const dossierQuerySchema = z.object({
  format: z.enum(["json", "pdf"], { error: "must be json or pdf" }).default("json"),
});
