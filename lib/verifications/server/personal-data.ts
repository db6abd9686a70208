import "server-only";

import { hasPermission, type PermissionHolder } from "@/lib/auth/permissions";
import { verificationFor } from "@/lib/upstream/model/masking";
import type { Verification } from "@/lib/upstream/model/verification";

/*
 * Who sees personal data unmasked: a member holding `personal_data.unmasked`, and only as far as the API key
 * gives it. Everyone else gets the dashboard's masking (lib/upstream/model/masking.ts), applied here on the
 * server, on every path a verification leaves by: list, detail, export (the CPF lookups' records: lib/lookups/server).
 */

export function seesUnmasked(viewer: PermissionHolder | null | undefined): boolean {
  return hasPermission(viewer, "personal_data.unmasked");
}

/** The verification as this member may see it. */
export function asSeenBy(viewer: PermissionHolder | null | undefined, verification: Verification): Verification {
  return verificationFor(verification, seesUnmasked(viewer));
}
