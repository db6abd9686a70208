// `npm run user:add -- --email a@b.c --role admin [--name "Ana Souza"]`: creates a staff account with a
// one-time password, printed once (the first admin in production is made this way). The person must
// replace it at first sign-in. The creation is recorded in the audit log.
import { parseArgs } from "node:util";

import { StaffEmailTakenError } from "@/lib/auth/server/staff-store";
import { inviteStaff } from "@/lib/staff/server/staff";
import { inviteStaffSchema } from "@/lib/staff/validation";

import { runCli, UsageError, withDatabase } from "./cli";

const USAGE =
  "usage: npm run user:add -- --email <address> --role <viewer|analyst|reviewer|auditor|admin|custom role id> [--name <full name>]";

function fail(message: string): never {
  throw new UsageError(message);
}

async function main(): Promise<void> {
  let values: { email?: string; role?: string; name?: string };
  try {
    ({ values } = parseArgs({
      options: { email: { type: "string" }, role: { type: "string" }, name: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (!values.email) fail("--email is required.");
  if (!values.role) fail("--role is required.");
  const parsed = inviteStaffSchema.safeParse({ email: values.email, role: values.role, name: values.name ?? values.email.split("@")[0] });
  if (!parsed.success) {
    fail(parsed.error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`).join("\n"));
  }

  await withDatabase(async ({ db }) => {
    try {
      const { user, oneTimePassword } = await inviteStaff(db, { actor: null, ip: null, input: parsed.data }, "cli");
      console.log(`created ${user.role} ${user.email}`);
      console.log(`one-time password (shown once; to be replaced at first sign-in): ${oneTimePassword}`);
    } catch (error) {
      if (error instanceof StaffEmailTakenError) fail(`A staff account with the email ${parsed.data.email} already exists.`);
      throw error;
    }
  });
}

runCli(main, { usage: USAGE, exitCode: () => 1 });
