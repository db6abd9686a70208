import "server-only";

import { auditableDetail, recordEvent } from "@/lib/audit-trail/server/record";
import { assertHeld, OwnAccessError } from "@/lib/auth/server/delegation";
import { factorCounts } from "@/lib/auth/server/factors";
import { generateOneTimePassword, hashPassword } from "@/lib/auth/server/password";
import { forgetLocally } from "@/lib/auth/server/session-invalidation";
import { revokeUserSessions } from "@/lib/auth/server/sessions";
import { lockStaffAccess, staffAccess } from "@/lib/auth/server/staff-access";
import { rolePermissions } from "@/lib/auth/server/staff-roles";
import { createStaff, getStaff, listStaff, StaffNotFoundError, updateStaff } from "@/lib/auth/server/staff-store";
import { signInBlock, unlockSignIn } from "@/lib/auth/server/throttle";
import { type StaffSession, type StaffUserDto } from "@/lib/auth/types";
import type { Database } from "@/lib/db/client";
import { quotaUsageToday } from "@/lib/db/quotas";
import type { InviteStaffInput } from "@/lib/staff/rules";
import type { StaffListEntry } from "@/lib/staff/types";
import type { UpdateStaffInput } from "@/lib/staff/validation";

/*
 * Staff-account changes. Each one and its audit event commit in one transaction: if the event cannot
 * be written, the change does not happen.
 */

type Actor = Pick<StaffSession, "id" | "email" | "sessionId">;
/** A member giving or changing access: what they hold bounds what they grant (lib/auth/server/delegation.ts). */
type Delegator = Actor & Pick<StaffSession, "permissions">;

/** A role as the trail names it: the built-in name, or `custom:<name>` (a custom role's id is a UUID, which the trail refuses in details; the target's events keep the id). */
function roleDetail(user: Pick<StaffUserDto, "role" | "customRoleName">): string | null {
  return user.customRoleName === null ? user.role : auditableDetail(`custom:${user.customRoleName}`);
}

/**
 * Creates an account with a one-time password, returned here once and never stored in clear. A member invites
 * only into a role whose permissions they all hold (PermissionNotHeldError, 403); the CLI (no actor) into any.
 */
export async function inviteStaff(
  db: Database,
  { actor, ip, input }: { actor: Delegator | null; ip: string | null; input: InviteStaffInput },
  via: "dashboard" | "cli" = "dashboard",
): Promise<{ user: StaffUserDto; oneTimePassword: string }> {
  const oneTimePassword = generateOneTimePassword();
  const passwordHash = await hashPassword(oneTimePassword);
  const user = await db.transaction(async (tx) => {
    if (actor) assertHeld(actor, await rolePermissions(tx, input.role));
    const created = await createStaff(tx, { ...input, passwordHash, mustChangePassword: true, createdBy: actor?.id ?? null });
    await recordEvent(
      {
        actor: actor ? { id: actor.id, email: actor.email } : null,
        action: "staff.invite",
        target: { type: "staff", id: created.id },
        outcome: "success",
        ip,
        details: { role: roleDetail(created), via },
      },
      tx,
    );
    return created;
  });
  return { user, oneTimePassword };
}

/**
 * Role, single-sign-on-only and enabled/disabled changes; disabling also ends the person's sessions at once. Bounded
 * delegation, checked under the staff-access lock with the actor's permissions as they are now: nobody changes
 * their own role or disables or re-enables themselves (OwnAccessError); a member changes only accounts whose
 * permissions they all hold, into roles whose permissions they all hold (PermissionNotHeldError).
 */
export async function changeStaff(
  db: Database,
  { actor, ip, id, change }: { actor: Delegator; ip: string | null; id: string; change: UpdateStaffInput },
): Promise<StaffUserDto> {
  if (id === actor.id && (change.role !== undefined || change.disabled !== undefined)) throw new OwnAccessError("account");
  return db
    .transaction(async (tx) => {
      const now = new Date();
      await lockStaffAccess(tx);
      const [me, target] = [(await staffAccess(tx, [actor.id]))[0], (await staffAccess(tx, [id]))[0]];
      if (!target) throw new StaffNotFoundError();
      const holder = { permissions: me && !me.disabled ? me.permissions : [] };
      assertHeld(holder, target.permissions);
      if (change.role !== undefined) assertHeld(holder, await rolePermissions(tx, change.role));
      const { before, after } = await updateStaff(tx, id, change, now, actor.id);
      if (after.disabled && !before.disabled) await revokeUserSessions(tx, id, now);
      const details: Record<string, string | boolean | null> = {};
      if (before.role !== after.role) Object.assign(details, { roleFrom: roleDetail(before), roleTo: roleDetail(after) });
      if (before.disabled !== after.disabled) details.disabled = after.disabled;
      if (before.ssoOnly !== after.ssoOnly) details.ssoOnly = after.ssoOnly;
      let action = "staff.role_change";
      if (before.role === after.role && before.ssoOnly !== after.ssoOnly) action = "staff.sso_only";
      if (before.disabled !== after.disabled) action = after.disabled ? "staff.disable" : "staff.enable";
      await recordEvent(
        { actor: { id: actor.id, email: actor.email }, action, target: { type: "staff", id }, outcome: "success", ip, details },
        tx,
      );
      return after;
    })
    .then((after) => {
      // This process forgets the member's cached session now; the others hear the database's notification.
      forgetLocally({ userId: id });
      return after;
    });
}

export async function listStaffWithSignInState(db: Database, now = new Date()): Promise<StaffListEntry[]> {
  const staff = await listStaff(db);
  const usage = await quotaUsageToday(
    db,
    staff.map((user) => user.id),
    { now },
  );
  const factors = await factorCounts(
    db,
    staff.map((user) => user.id),
  );
  return Promise.all(
    staff.map(async (user) => {
      const block = await signInBlock(db, user.email, now);
      return {
        ...user,
        usageToday: usage.get(user.id) ?? { lookup: 0, kyc_start: 0, export_rows: 0, media_view: 0, sms_send: 0, cpf_search: 0 },
        signIn: {
          lockedUntil: block.lockedUntil?.toISOString() ?? null,
          lockedAddresses: block.lockedAddresses.length,
          recentFailures: block.recentFailures,
          accountLocked: block.accountLocked,
        },
        factorCount: factors.get(user.id) ?? 0,
      };
    }),
  );
}

/**
 * An admin lifts every sign-in lock on an account and its slow-down. The unlock and its audit event
 * commit together; the event says how many locks and failures were lifted.
 */
export async function unlockStaffSignIn(
  db: Database,
  { actor, ip, id, now = new Date() }: { actor: Actor; ip: string | null; id: string; now?: Date },
): Promise<StaffListEntry["signIn"]> {
  const user = await getStaff(db, id);
  if (!user) throw new StaffNotFoundError();
  await db.transaction(async (tx) => {
    const before = await signInBlock(tx, user.email, now);
    await unlockSignIn(tx, user.email);
    await recordEvent(
      {
        actor: { id: actor.id, email: actor.email },
        action: "staff.sign_in_unlock",
        target: { type: "staff", id },
        outcome: "success",
        ip,
        details: { lockedAddresses: before.lockedAddresses.length, recentFailures: before.recentFailures },
      },
      tx,
    );
  });
  return { lockedUntil: null, lockedAddresses: 0, recentFailures: 0, accountLocked: false };
}
