import { json, route } from "@/lib/api/route";
import { inviteStaff, listStaffWithSignInState } from "@/lib/staff/server/staff";
import { inviteStaffSchema } from "@/lib/staff/validation";

export const dynamic = "force-dynamic";

// GET /api/staff – every staff account, with what holds its sign-in back (admin).
export const GET = route({ permission: "staff.manage" }, async ({ db }) => json({ staff: await listStaffWithSignInState(db) }));

// POST /api/staff – invite: creates the account and answers its one-time password, this once only (admin).
// A taken email is the typed StaffEmailTakenError: 409 naming `email`.
export const POST = route(
  { permission: "staff.manage", stepUp: true, body: inviteStaffSchema },
  async ({ db, user: actor, context, body: input }) => {
    const { user, oneTimePassword } = await inviteStaff(db, { actor, ip: context.ip, input });
    return json({ user, oneTimePassword }, { status: 201 });
  },
);
