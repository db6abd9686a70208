import { z } from "zod";

import { webAuthnResponse } from "@/lib/auth/validation";
import { safeText } from "@/lib/shared/safe-text-schema";

// The member's own second factors (app/api/account/factors/**): adding one, naming it, picking one.

export const factorLabelSchema = safeText(z.string().trim().min(1, "is required").max(60, "must be at most 60 characters"));

export const totpEnrolSchema = z.object({ label: factorLabelSchema }).strict();

export const passkeyEnrolSchema = z.object({ label: factorLabelSchema, response: webAuthnResponse }).strict();

export const factorIdSchema = z.object({ id: z.uuid() });
