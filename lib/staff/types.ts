import type { StaffUserDto } from "@/lib/auth/types";

// Shared (no server imports): what the staff routes answer.

/** A staff account as the staff page shows it: with what currently holds its sign-in back. */
export interface StaffListEntry extends StaffUserDto {
  signIn: { lockedUntil: string | null; lockedAddresses: number; recentFailures: number };
}
