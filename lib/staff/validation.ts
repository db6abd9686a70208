import { z } from "zod";

import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";
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

/**
 * PUT /api/staff/{id}/connections: `connections: null` gives every connection (the default); a list gives those only,
 * each withholding the named permissions from the member's role there. At least one, each once.
 */
export const staffConnectionsSchema = z
  .object({
    connections: z
      .array(
        z
          .object({
            connectionId: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "must be a connection's id"),
            withheld: z
              .array(z.enum(PERMISSIONS as [Permission, ...Permission[]]))
              .max(PERMISSIONS.length)
              .default([]),
          })
          .strict(),
      )
      .min(1, "must name at least one connection, or be null for every one")
      .max(100)
      .refine((grants) => new Set(grants.map((grant) => grant.connectionId)).size === grants.length, "must name each connection once")
      .nullable(),
  })
  .strict();
