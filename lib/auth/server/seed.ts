import "server-only";

import { recordEvent } from "@/lib/audit-trail/server/record";
import type { Role } from "@/lib/auth/roles";
import { hashPassword } from "@/lib/auth/server/password";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";

import { createStaff, getStaffByEmail, StaffEmailTakenError } from "./staff-store";

/*
 * The demo staff accounts of DESIGN.md, for the embedded default only (config().seedDemoAccounts):
 * they exist while the upstream is the sandbox, and sign-in refuses them otherwise.
 * Idempotent: an existing account is left as it is (including a changed password or a disabled flag).
 */
export const DEMO_ACCOUNTS: ReadonlyArray<{ email: string; password: string; name: string; role: Role }> = [
  { email: "admin@sandbox.local", password: "sandbox-admin", name: "Sandbox Admin", role: "admin" },
  { email: "analyst@sandbox.local", password: "sandbox-analyst", name: "Sandbox Analyst", role: "analyst" },
];

export function isDemoAccount(email: string): boolean {
  const normalised = email.trim().toLowerCase();
  return DEMO_ACCOUNTS.some((account) => account.email === normalised);
}

/**
 * Seeds the demo accounts when the configuration asks for them (the embedded default), else does nothing.
 * Called at server start (instrumentation.ts) and by `npm run db:migrate`, never by the database client.
 */
export async function seedDemoAccountsIfConfigured(db: Database, enabled = config().seedDemoAccounts): Promise<boolean> {
  if (!enabled) return false;
  await seedDemoAccounts(db);
  return true;
}

export async function seedDemoAccounts(db: Database): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    if (await getStaffByEmail(db, account.email)) continue;
    try {
      await db.transaction(async (tx) => {
        const created = await createStaff(tx, {
          email: account.email,
          name: account.name,
          role: account.role,
          passwordHash: await hashPassword(account.password),
          mustChangePassword: false,
        });
        await recordEvent(
          {
            actor: null,
            action: "staff.create",
            target: { type: "staff", id: created.id },
            outcome: "success",
            details: { role: account.role, via: "seed" },
          },
          tx,
        );
      });
    } catch (error) {
      // Another process seeded it between our check and insert: that is the state we wanted.
      if (!(error instanceof StaffEmailTakenError)) throw error;
    }
  }
}
