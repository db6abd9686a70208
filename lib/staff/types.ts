import type { Permission } from "@/lib/auth/permissions";
import type { RoleRef } from "@/lib/auth/roles";
import type { StaffUserDto } from "@/lib/auth/types";

// Shared (no server imports): what the staff routes answer.

/** A staff account as the staff page shows it: with what currently holds its sign-in back. */
export interface StaffListEntry extends StaffUserDto {
  signIn: { lockedUntil: string | null; lockedAddresses: number; recentFailures: number; accountLocked: boolean };
  /** Confirmed second factors the member holds (authenticator apps and passkeys). */
  factorCount: number;
  /** The member's use of each quota today, in the display time zone's day (lib/db/quotas.ts). */
  usageToday: QuotaUsageToday;
}

/** Per quota: CPF lookups, KYC starts, exported rows, images opened, SMS codes sent, masked CPF searches. */
export interface QuotaUsageToday {
  lookup: number;
  kyc_start: number;
  export_rows: number;
  media_view: number;
  sms_send: number;
  /** CPF searches by a member without personal_data.unmasked (the only ones counted). */
  cpf_search: number;
}

/** A role the staff page offers (the invitation, the role picker): built-in (its name translated) or custom (its own name). */
export interface RoleChoice {
  /** A built-in role's name or a custom role's id. */
  id: RoleRef;
  /** A custom role's name; null for a built-in role. */
  customName: string | null;
  permissions: readonly Permission[];
}

/** GET and PUT /api/staff/{id}/connections: null, every connection with the role's permissions; else those listed. */
export interface StaffConnectionsResponse {
  connections: Array<{ connectionId: string; withheld: Permission[] }> | null;
}
