import type { Permission } from "./permissions";
import type { RoleRef } from "./roles";

// Shared (no server imports): staff accounts and sessions as the pages and route handlers see them.

export interface StaffUserDto {
  id: string;
  email: string;
  name: string;
  /** A built-in role's name or a custom role's id (lib/auth/roles.ts). */
  role: RoleRef;
  /** The custom role's name; null for a built-in role (whose label is translated). */
  customRoleName: string | null;
  disabled: boolean;
  /** Marked themselves away (PUT /api/account/availability): auto-assignment passes them by. */
  away: boolean;
  mustChangePassword: boolean;
  hasPassword: boolean;
  oidcLinked: boolean;
  /** Signs in through single sign-on only: the password form refuses them. */
  ssoOnly: boolean;
  lastSignInAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export type SignInMethod = "password" | "oidc" | "passkey";

/** A session as the sessions lists show it: the browser and system read from its user agent (bowser). */
export interface SessionView {
  id: string;
  current?: boolean;
  browser: string | null;
  system: string | null;
  ip: string | null;
  method: SignInMethod;
  createdAt: string;
  lastSeenAt: string;
}

/**
 * What a session still has to do before it may do anything else: the second factor after the password, the
 * one-time password's replacement, or (the policy asking for one) the enrolment of a first factor.
 */
export type SessionStage = "second_factor" | "password_change" | "enrolment";

/** The signed-in staff member, as route handlers and pages see them. */
export interface StaffSession {
  id: string;
  email: string;
  name: string;
  /** A built-in role's name or a custom role's id. Never decides anything: `permissions` does. */
  role: RoleRef;
  /** The custom role's name; null for a built-in role. */
  customRoleName: string | null;
  /** What the member may do, resolved from their role on every request (lib/auth/permissions.ts `hasPermission`). */
  permissions: readonly Permission[];
  sessionId: string;
  mustChangePassword: boolean;
  /** The stage the session is in, or null when complete (lib/auth/server/sessions.ts). */
  awaiting: SessionStage | null;
  method: SignInMethod;
  /** When a second factor was last verified in this session (epoch ms): a step-up is fresh for STEP_UP_SECONDS. */
  secondFactorAt: number | null;
  /** Whether the member has a confirmed second factor. */
  hasSecondFactor: boolean;
  /** Whether the member has a password (a member created for single sign-on may have none). */
  hasPassword: boolean;
  /** When this session's sign-in happened (epoch ms): the first enrolment's grace (require-role.ts `assertCredentialChange`). */
  signedInAt: number;
  /**
   * The connections the member is given, each less what it withholds (lib/connections/server/access.ts); null: every
   * connection, nothing withheld. Read with the session, so the session cache spares a query per request; a change
   * reaches every instance's cache like a role change (migration 0036).
   */
  connectionGrants: SessionConnectionGrant[] | null;
}

export interface SessionConnectionGrant {
  connectionId: string;
  withheld: Permission[];
}

/** The factors a member can step up with (GET /api/account/factors, `stepUpMethods`). */
export type StepUpMethod = "totp" | "passkey" | "recovery" | "password";

/** A step-up's proof: a code (TOTP or recovery), a passkey's assertion or (no factor at all) the password. */
export type StepUpProof = { code: string } | { password: string } | { passkey: unknown };

/** A verified step-up (POST /api/account/step-up): when, and until when it counts. */
export interface StepUpVerified {
  verifiedAt: string;
  until: string;
}
