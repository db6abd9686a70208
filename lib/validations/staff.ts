import { z } from "zod";

import { ROLES } from "@/lib/auth/roles";

// Shared by the staff forms and the route handlers.

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** Emails are compared and stored lower-cased and trimmed. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email());
export const roleSchema = z.enum(ROLES);

export const inviteStaffSchema = z.object({
  email: emailSchema,
  name: z.string().trim().min(1).max(120),
  role: roleSchema,
});
export type InviteStaffInput = z.infer<typeof inviteStaffSchema>;

export const updateStaffSchema = z
  .object({ role: roleSchema.optional(), disabled: z.boolean().optional() })
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
