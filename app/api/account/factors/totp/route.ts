import { startTotpEnrolment } from "@/lib/account/server/factors";
import { totpEnrolSchema } from "@/lib/account/validation";
import { json, route } from "@/lib/api/route";

export const dynamic = "force-dynamic";

// POST /api/account/factors/totp {label} – starts an authenticator app: its secret, otpauth URI and QR code,
// shown this once. It counts only when a first code confirms it (…/verify). A step-up first (`credentials`).
export const POST = route(
  { permission: "signed_in", during: ["enrolment"], stepUp: "credentials", body: totpEnrolSchema },
  async ({ db, user, body }) => json(await startTotpEnrolment(db, { id: user.id, email: user.email }, body.label), { status: 201 }),
);
