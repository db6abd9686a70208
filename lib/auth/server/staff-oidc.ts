import "server-only";

import { and, eq, isNull, or, sql } from "drizzle-orm";

import type { RoleRef } from "@/lib/auth/roles";
import { pgErrorCode } from "@/lib/auth/server/staff-store";
import { staffUsers } from "@/lib/auth/server/tables";
import type { OidcRefusal } from "@/lib/auth/sign-in-errors";
import type { Database } from "@/lib/db/client";

/* Binding a single sign-on identity to its staff account. */

export type OidcClaim =
  | { status: "claimed"; staff: { id: string; email: string; name: string; role: RoleRef } }
  | { status: "refused"; reason: Exclude<OidcRefusal, "email_not_released" | "email_not_verified"> };

/**
 * The staff account an OIDC identity may use: matched by email, active, and either not yet bound to an
 * identity (it is bound now) or bound to this same subject. Never creates an account. The conditional
 * UPDATE decides, so two first sign-ins racing for one account bind it once; when it matches nothing, one
 * read says why.
 */
export async function claimStaffForOidc(db: Database, { email, subject }: { email: string; subject: string }): Promise<OidcClaim> {
  const byEmail = eq(sql`lower(${staffUsers.email})`, email.trim().toLowerCase());
  let claimed;
  try {
    [claimed] = await db
      .update(staffUsers)
      .set({ oidcSubject: subject })
      .where(and(byEmail, eq(staffUsers.disabled, false), or(isNull(staffUsers.oidcSubject), eq(staffUsers.oidcSubject, subject))))
      .returning({ id: staffUsers.id, email: staffUsers.email, name: staffUsers.name, role: staffUsers.role });
  } catch (error) {
    // The unique index on oidc_subject: this identity already holds another account.
    if (pgErrorCode(error) === "23505") return { status: "refused", reason: "subject_bound_to_other_account" };
    throw error;
  }
  if (claimed) return { status: "claimed", staff: claimed };
  const [row] = await db.select({ disabled: staffUsers.disabled }).from(staffUsers).where(byEmail);
  if (!row) return { status: "refused", reason: "unknown_account" };
  return { status: "refused", reason: row.disabled ? "disabled" : "account_bound_to_other_subject" };
}
