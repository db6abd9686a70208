import { z } from "zod";

import { isRoleRef, ROLES } from "@/lib/auth/roles";
import { schemaFromParser } from "@/lib/shared/from-parser";

import { parseInviteStaff } from "./rules";

// The staff route handlers' and CLIs' schemas, on the rules of staff-rules.ts (which the forms import).

/** A built-in role's name or a custom role's id (whether that role exists and is live, the store checks). */
export const roleSchema = z.string().refine(isRoleRef, { message: `must be one of ${ROLES.join(", ")} or a custom role's id` });

/** POST /api/staff and `npm run user:add`: the invite form's own parser (staff-rules.ts). */
export const inviteStaffSchema = schemaFromParser(parseInviteStaff);

export const updateStaffSchema = z
  .object({ role: z.optional(roleSchema), disabled: z.boolean().optional(), ssoOnly: z.boolean().optional() })
  .strict()
  .refine((change) => change.role !== undefined || change.disabled !== undefined || change.ssoOnly !== undefined, {
    message: "nothing to change",
  });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;
