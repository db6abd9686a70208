"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";

import { requestContext } from "@/lib/audit-trail/server/context";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { currentPageUser } from "@/lib/auth/server/require-role";
import { verifyStepUp } from "@/lib/auth/server/step-up";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";

/**
 * The second step's form (works without JavaScript): the code from the app or a recovery code. Right: on to
 * where the member was going. Wrong or too many: back to the form with the reason.
 */
export async function verifySecondFactor(formData: FormData): Promise<void> {
  const callbackPath = safeCallbackPath(String(formData.get("callbackUrl") ?? ""));
  const user = await currentPageUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(callbackPath)}`);
  if (user.awaiting !== "second_factor") redirect(callbackPath);
  const code = String(formData.get("code") ?? "").slice(0, 32);
  let error: string | null = null;
  try {
    await verifyStepUp(await getDb(), user, { code }, { context: requestContext(user, await headers()) });
  } catch (caught) {
    if (!(caught instanceof AppError)) throw caught;
    error = caught.code === "rate_limited" ? "throttled" : "invalid";
  }
  redirect(error ? `/sign-in/verify?${new URLSearchParams({ callbackUrl: callbackPath, error })}` : callbackPath);
}
