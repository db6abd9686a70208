// Credential rules shared by sign-in, password changes and staff invitations (browser-safe, no zod).

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** Emails are compared and stored lower-cased and trimmed. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const MAX_EMAIL_LENGTH = 254;
