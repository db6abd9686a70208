import { z } from "zod";

/*
 * When a member takes an unassigned case (issue 32, "no wasted key"), one setting for the team:
 * - on_open: opening the case page of an unassigned case the member may take assigns it to them;
 * - on_decision (the default): a decision key (`x`, `p`, `e`) takes it, then opens the form;
 * - never: only the explicit claim (`a`, the button) takes it; a decision key says so.
 * Browser-safe: the case page and the admin page read it, PUT /api/cases/settings changes it.
 */

export const TAKE_MODES = ["on_open", "on_decision", "never"] as const;
export type TakeMode = (typeof TAKE_MODES)[number];
export const DEFAULT_TAKE_MODE: TakeMode = "on_decision";

export const takeSettingsSchema = z
  .object({ takeMode: z.enum(TAKE_MODES, { message: `must be one of ${TAKE_MODES.join(", ")}` }) })
  .strict();
export type TakeSettings = z.infer<typeof takeSettingsSchema>;
