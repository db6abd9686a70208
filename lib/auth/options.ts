import "server-only";

import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { headers } from "next/headers";

import { record } from "@/lib/audit";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { claimStaffForOidc } from "@/lib/db/queries";
import { log } from "@/lib/log";
import { signInSchema } from "@/lib/validations/staff";

import { clientAddress } from "./address";
import { safeCallbackUrl } from "./callback-url";
import { authCookies, secureCookiesWanted } from "./cookies";
import { decodeSessionToken } from "./session-token";
import { ABSOLUTE_TIMEOUT_MS, revokeSession, startSession } from "./sessions";
import { attemptPasswordSignIn } from "./sign-in";
import { LOCKED_ERROR } from "./sign-in-errors";

/*
 * next-auth (v4) configuration: credentials against the staff table, plus OIDC when OIDC_* is set.
 * The JWT cookie carries the user id, role and a server-side session id; lib/auth/require-role.ts
 * checks that session in the database on every request, which is what makes sign-out, disabling and
 * the idle timeout real.
 */

type StaffUser = User & { role: string };

async function requestAddress(): Promise<string | null> {
  try {
    return clientAddress(await headers(), config().trustedProxies);
  } catch {
    return null; // outside a request (never in the app; possible in a script)
  }
}

function oidcProvider(oidc: NonNullable<ReturnType<typeof config>["oidc"]>): NonNullable<NextAuthOptions["providers"][number]> {
  return {
    id: "oidc",
    name: "Single sign-on",
    type: "oauth",
    wellKnown: `${oidc.issuer}/.well-known/openid-configuration`,
    clientId: oidc.clientId,
    clientSecret: oidc.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    profile(profile: { sub: string; email?: string; name?: string }) {
      return { id: profile.sub, email: profile.email ?? null, name: profile.name ?? profile.email ?? null };
    },
  };
}

export function authOptions(): NextAuthOptions {
  const settings = config();
  const secure = secureCookiesWanted();
  return {
    secret: settings.secrets.nextAuth,
    useSecureCookies: secure,
    cookies: authCookies(secure),
    // The absolute limit; the idle limit and revocation are enforced on the server-side session row.
    session: { strategy: "jwt", maxAge: ABSOLUTE_TIMEOUT_MS / 1000 },
    // next-auth encodes; decoding reuses the derived key instead of deriving it per request.
    jwt: { maxAge: ABSOLUTE_TIMEOUT_MS / 1000, decode: decodeSessionToken },
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          const parsed = signInSchema.safeParse(credentials);
          if (!parsed.success) return null;
          const address = clientAddress(request.headers ?? {}, settings.trustedProxies);
          const result = await attemptPasswordSignIn(await getDb(), {
            ...parsed.data,
            address,
            allowDemoAccounts: settings.seedDemoAccounts,
          });
          if (result.status === "locked") {
            // next-auth passes a thrown message to the client as the error code.
            throw new Error(`${LOCKED_ERROR}:${Math.ceil(result.retryAfterMs / 60_000)}`);
          }
          if (result.status === "invalid") return null;
          return result.user;
        },
      }),
      ...(settings.oidc ? [oidcProvider(settings.oidc)] : []),
    ],
    callbacks: {
      async signIn({ user, account, profile }) {
        if (account?.provider !== "oidc") return true;
        const email = typeof user.email === "string" ? user.email.trim().toLowerCase() : "";
        const verified = (profile as { email_verified?: boolean } | undefined)?.email_verified !== false;
        const staff = email && verified ? await claimStaffForOidc(await getDb(), { email, subject: account.providerAccountId }) : null;
        if (staff) return true;
        // Unknown, disabled or differently bound: refused, never created.
        await record({
          actor: { id: null, email: /^[^\s@]+@[^\s@]+$/.test(email) ? email : null },
          action: "auth.sign_in",
          outcome: "failure",
          ip: await requestAddress(),
          details: { method: "oidc", reason: verified ? "no_matching_staff" : "email_not_verified" },
        });
        return false;
      },
      async jwt({ token, user, account }) {
        if (!user || !account) return token; // an existing session: checked in require-role, not here
        const db = await getDb();
        const staff =
          account.provider === "oidc"
            ? await claimStaffForOidc(db, { email: String(user.email ?? ""), subject: account.providerAccountId })
            : { id: user.id, email: String(user.email), name: String(user.name ?? ""), role: (user as StaffUser).role };
        if (!staff) throw new Error("AccessDenied");
        const sessionId = await startSession(db, {
          userId: staff.id,
          email: staff.email,
          method: account.provider === "oidc" ? "oidc" : "password",
          ip: await requestAddress(),
        });
        return {
          sub: staff.id,
          email: staff.email,
          name: staff.name,
          uid: staff.id,
          sid: sessionId,
          role: staff.role as "analyst" | "admin",
        };
      },
      async session({ session, token }) {
        // Only for next-auth/react's useSession; authorisation never trusts this.
        session.user = { name: token.name, email: token.email };
        return session;
      },
      async redirect({ url, baseUrl }) {
        return safeCallbackUrl(url, baseUrl);
      },
    },
    events: {
      async signOut({ token }) {
        if (!token?.sid) return;
        const db = await getDb();
        await revokeSession(db, token.sid);
        await record(
          {
            actor: { id: token.uid ?? null, email: token.email ?? null },
            action: "auth.sign_out",
            outcome: "success",
            ip: await requestAddress(),
          },
          db,
        );
      },
    },
    logger: {
      error: (code, metadata) => log.error("next_auth_error", { code, metadata }),
      warn: (code) => log.warn("next_auth_warning", { code }),
      debug: () => undefined,
    },
  };
}
