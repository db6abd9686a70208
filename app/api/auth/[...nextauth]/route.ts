import NextAuth from "next-auth";

import { authOptions } from "@/lib/auth/server/options";

// /api/auth/* – next-auth's own endpoints (CSRF token, credentials and OIDC callbacks, sign-out).
// The options are built per request so configuration is read at run time, never during `next build`.
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context) {
  return NextAuth(request as never, context as never, authOptions());
}

export { handler as GET, handler as POST };
