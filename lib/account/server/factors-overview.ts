import "server-only";

import { secondFactorRequired } from "@/lib/auth/permissions";
import { listFactors, recoveryCodesLeft, type FactorDto } from "@/lib/auth/server/factors";
import { stepUpMethods, type StepUpMethod } from "@/lib/auth/server/step-up";
import type { StaffSession } from "@/lib/auth/types";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";

export interface FactorsOverview {
  factors: FactorDto[];
  recoveryCodesLeft: number;
  /** The policy requires this member to have a second factor. */
  required: boolean;
  /** How the member can confirm a sensitive action (the step-up dialog's choices). */
  stepUpMethods: StepUpMethod[];
}

/** The member's second factors as GET /api/account/factors answers them, and as /account renders them first. */
export async function factorsOverview(db: Database, user: StaffSession): Promise<FactorsOverview> {
  const [factors, left] = await Promise.all([listFactors(db, user.id), recoveryCodesLeft(db, user.id)]);
  return {
    factors,
    recoveryCodesLeft: left,
    required: secondFactorRequired(config().signIn.mfaRequired, user),
    stepUpMethods: stepUpMethods(user, {
      hasApp: factors.some((factor) => factor.kind === "totp"),
      hasPasskey: factors.some((factor) => factor.kind === "passkey"),
      recoveryLeft: left,
    }),
  };
}
