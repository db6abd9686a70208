import NextAuth from "next-auth";

import { boundedRequest } from "@/lib/api/body";
import { toErrorResponse } from "@/lib/api/errors";
import { authOptions } from "@/lib/auth/server/options";

// /api/auth/* – next-auth's own endpoints (CSRF token, credentials and OIDC callbacks, sign-out).
// The options are built per request so configuration is read at run time, never during `next build`.
export const dynamic = "force-dynamic";

/**
 * next-auth's posts are small forms (an email, a password, a CSRF token, a code): a few KiB is plenty. next-auth
 * reads the body itself, whatever its size, so it gets a copy read through this cap (lib/api/body.ts): a larger
 * body is refused with 413 while it streams in, before it is buffered.
 */
const NEXTAUTH_MAX_BODY_BYTES = 8 * 1024;

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context) {
  let bounded: Request;
  try {
    bounded = await boundedRequest(request, NEXTAUTH_MAX_BODY_BYTES);
  } catch (error) {
    return toErrorResponse(error);
  }
  return NextAuth(bounded as never, context as never, authOptions());
}

export { handler as GET, handler as POST };
