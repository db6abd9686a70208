import type { Role } from "./roles";

// Shared (no server imports): staff accounts and sessions as the pages and route handlers see them.

export interface StaffUserDto {
  id: string;
  email: string;
  name: string;
  role: Role;
  disabled: boolean;
  mustChangePassword: boolean;
  hasPassword: boolean;
  oidcLinked: boolean;
  lastSignInAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type SignInMethod = "password" | "oidc";

/** The signed-in staff member, as route handlers and pages see them. */
export interface StaffSession {
  id: string;
  email: string;
  name: string;
  role: Role;
  sessionId: string;
  mustChangePassword: boolean;
}
