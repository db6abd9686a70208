/*
 * When a member takes an unassigned case (issue 32, "no wasted key"), one setting for the team:
 * - on_open: opening the case page of an unassigned case the member may take assigns it to them;
 * - on_decision (the default): a decision key (`x`, `p`, `e`) takes it, then opens the form;
 * - never: only the explicit claim (`a`, the button) takes it; a decision key says so.
 * Browser-safe and free of zod (the case page's bundle carries none: e2e/client-bundle.spec.ts); PUT
 * /api/cases/settings checks its body with takeSettingsSchema (lib/cases/validation.ts).
 */

export const TAKE_MODES = ["on_open", "on_decision", "never"] as const;
export type TakeMode = (typeof TAKE_MODES)[number];
export const DEFAULT_TAKE_MODE: TakeMode = "on_decision";

/** The team's case settings as PUT /api/cases/settings takes them. */
export interface TakeSettings {
  takeMode: TakeMode;
}
