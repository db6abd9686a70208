import { z } from "zod";

import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./credentials";

// Sign-in and password-change input, shared by the forms, the route handlers and next-auth's credentials check.

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
