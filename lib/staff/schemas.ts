import { z } from "zod";

import { ROLES } from "@/lib/auth/roles";

import { schemaFromParser } from "../shared/from-parser";
import { parseInviteStaff } from "./rules";

// The staff route handlers' and CLIs' schemas, on the rules of staff-rules.ts (which the forms import).

export const roleSchema = z.enum(ROLES);

/** POST /api/staff and `npm run user:add`: the invite form's own parser (staff-rules.ts). */
export const inviteStaffSchema = schemaFromParser(parseInviteStaff);

export const updateStaffSchema = z
  .object({ role: z.optional(roleSchema), disabled: z.boolean().optional() })
  .strict()
  .refine((change) => change.role !== undefined || change.disabled !== undefined, { message: "nothing to change" });
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;
