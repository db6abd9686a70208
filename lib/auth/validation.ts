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

// Codes and step-up, at sign-in and on the account (adding and removing factors: lib/account/validation.ts). The
// WebAuthn answers are the browser's JSON, checked in depth by @simplewebauthn/server; here only their outer shape and size.

export const webAuthnResponse = z.object({ id: z.string().min(1).max(1024), type: z.literal("public-key") }).passthrough();

export const codeSchema = z.object({ code: z.string().trim().min(6, "is required").max(32) }).strict();

export const stepUpSchema = z.union([
  codeSchema,
  z.object({ password: z.string().min(1, "is required").max(MAX_PASSWORD_LENGTH) }).strict(),
  z.object({ passkey: webAuthnResponse }).strict(),
]);
