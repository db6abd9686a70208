import "./zod-mini-locale";

import * as z from "zod/mini";

import { ROLES } from "@/lib/auth/roles";

// The invitation, one definition for the invite form (in the browser, hence zod/mini), POST /api/staff
// and `npm run user:add`.

export const emailSchema = z.pipe(z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254)), z.email());
export const roleSchema = z.enum(ROLES);

export const inviteStaffSchema = z.object({
  email: emailSchema,
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)),
  role: roleSchema,
});
export type InviteStaffInput = z.infer<typeof inviteStaffSchema>;
