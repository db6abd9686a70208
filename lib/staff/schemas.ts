import { z } from "zod";

import { ROLES } from "@/lib/auth/roles";

import { schemaFromParser } from "../shared/from-parser";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, parseInviteStaff } from "./rules";

// The staff route handlers' and CLIs' schemas, on the rules of staff-rules.ts (which the forms import).

export * from "./rules";

export const roleSchema = z.enum(ROLES);

/** POST /api/staff and `npm run user:add`: the invite form's own parser (staff-rules.ts). */
export const inviteStaffSchema = schemaFromParser(parseInviteStaff);

export const updateStaffSchema = z
  .object({ role: z.optional(roleSchema), disabled: z.boolean().optional() })
  .strict()
  .refine((change) => change.role !== undefined || change.disabled !== undefined, { message: "nothing to change" });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;

export const newPasswordSchema = z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH);

export const changePasswordSchema = z
  .object({ currentPassword: z.string().min(1).max(MAX_PASSWORD_LENGTH), newPassword: newPasswordSchema })
  .refine((input) => input.newPassword !== input.currentPassword, {
    message: "must differ from the current password",
    path: ["newPassword"],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const signInSchema = z.object({
  email: z.string().max(254),
  password: z.string().max(1024),
});
