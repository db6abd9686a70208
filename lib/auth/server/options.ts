import "server-only";

import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { headers } from "next/headers";

import { recordEvent } from "@/lib/audit-trail/server/record";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { claimStaffForOidc } from "@/lib/auth/server/staff-oidc";
import { LOCKED_ERROR } from "@/lib/auth/sign-in-errors";
import { signInSchema } from "@/lib/auth/validation";
import { config } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { clientAddress } from "@/lib/shared/client-address";

import { authCookies, secureCookiesWanted } from "./cookies";
import { admitOidcSignIn, oidcClaims, oidcIdentity, type Claims } from "./oidc";
import { sessionJwtCodec } from "./session-token";
import { ABSOLUTE_TIMEOUT_MS, revokeSession, startSession } from "./sessions";
import { attemptPasskeySignIn, attemptPasswordSignIn } from "./sign-in";
import { relyingParty } from "./webauthn";

/*
 * next-auth (v4) configuration: credentials against the staff table, plus OIDC when OIDC_* is set.
 * The JWT cookie carries the user id, role and a server-side session id; lib/auth/server/require-role.ts
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

async function requestUserAgent(): Promise<string | null> {
  try {
    return (await headers()).get("user-agent");
  } catch {
    return null;
  }
}

/** Whether the identity provider says it checked a second factor (an `amr` value OIDC_TRUSTED_AMR lists). */
function trustedAmr(profile: unknown): boolean {
  const amr = (profile as { amr?: unknown } | undefined)?.amr;
  const trusted = config().signIn.oidcTrustedAmr;
  return Array.isArray(amr) && amr.some((value) => typeof value === "string" && trusted.includes(value));
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
    // The ID token is validated (signature, issuer, audience, nonce); its claims are completed from
    // userinfo, with the access token just issued, when it carries no email (lib/auth/server/oidc.ts).
    idToken: true,
    userinfo: {
      // next-auth types the tokens loosely; with `idToken: true` they are openid-client's validated TokenSet.
      request: ({ tokens, client }) => {
        const tokenSet = tokens as Parameters<typeof client.userinfo>[0] & { claims(): Claims };
        return oidcClaims(tokenSet.claims(), () => client.userinfo(tokenSet));
      },
    },
    checks: ["pkce", "state", "nonce"],
    profile(claims: Claims) {
      const identity = oidcIdentity(claims);
      return { id: identity.subject, email: identity.email, name: identity.name ?? identity.email };
    },
  };
}

export function authOptions(): NextAuthOptions {
  const settings = config();
  const secure = secureCookiesWanted();
  return {
    // next-auth still signs its own small cookies (CSRF, OAuth checks) with this; the session JWT goes through the ring.
    secret: settings.secrets.nextAuth.current.secret,
    useSecureCookies: secure,
    cookies: authCookies(secure),
    // The absolute limit; the idle limit and revocation are enforced on the server-side session row.
    session: { strategy: "jwt", maxAge: ABSOLUTE_TIMEOUT_MS / 1000 },
    // Encoded under the NEXTAUTH_SECRET ring's current key, decoded under any of its keys (a rotation signs nobody out).
    jwt: { maxAge: ABSOLUTE_TIMEOUT_MS / 1000, ...sessionJwtCodec(settings.secrets.nextAuth) },
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
      // A passkey on its own (a discoverable credential, verified on the device): both factors at once.
      CredentialsProvider({
        id: "passkey",
        name: "Passkey",
        credentials: { response: { label: "Passkey", type: "text" } },
        async authorize(credentials, request) {
          let response: unknown;
          try {
            response = JSON.parse(String(credentials?.response ?? ""));
          } catch {
            return null;
          }
          const host = String((request.headers as Record<string, string> | undefined)?.host ?? "localhost");
          const result = await attemptPasskeySignIn(await getDb(), {
            response: response as Parameters<typeof attemptPasskeySignIn>[1]["response"],
            rp: relyingParty({ host }),
            address: clientAddress(request.headers ?? {}, settings.trustedProxies),
            allowDemoAccounts: settings.seedDemoAccounts,
          });
          if (result.status === "locked") throw new Error(`${LOCKED_ERROR}:${Math.ceil(result.retryAfterMs / 60_000)}`);
          return result.status === "ok" ? result.user : null;
        },
      }),
      ...(settings.oidc ? [oidcProvider(settings.oidc)] : []),
    ],
    callbacks: {
      async signIn({ account, profile }) {
        if (account?.provider !== "oidc") return true;
        const admission = await admitOidcSignIn(await getDb(), oidcIdentity((profile ?? {}) as Claims), {
          allowUnverifiedEmail: settings.oidc?.allowUnverifiedEmail ?? false,
          ip: await requestAddress(),
        });
        // Refused: back to the sign-in page with this cause's message; nothing was created.
        return admission.status === "admitted" || `/sign-in?error=${encodeURIComponent(admission.error)}`;
      },
      async jwt({ token, user, account, profile }) {
        if (!user || !account) return token; // an existing session: checked in require-role, not here
        const db = await getDb();
        const method = account.provider === "oidc" ? "oidc" : account.provider === "passkey" ? "passkey" : "password";
        // signIn above admitted this identity; claiming again is idempotent and catches an account
        // disabled in between.
        const claim =
          method === "oidc" ? await claimStaffForOidc(db, { email: String(user.email ?? ""), subject: account.providerAccountId }) : null;
        if (claim && claim.status !== "claimed") throw new Error("AccessDenied");
        const staff = claim
          ? claim.staff
          : { id: user.id, email: String(user.email), name: String(user.name ?? ""), role: (user as StaffUser).role };
        const sessionId = await startSession(db, {
          userId: staff.id,
          email: staff.email,
          method,
          ip: await requestAddress(),
          userAgent: await requestUserAgent(),
          // A passkey proves both factors; single sign-on does when the provider's `amr` says so (OIDC_TRUSTED_AMR).
          secondFactor: method === "passkey" || (method === "oidc" && trustedAmr(profile)),
        });
        return {
          sub: staff.id,
          email: staff.email,
          name: staff.name,
          uid: staff.id,
          sid: sessionId,
          role: staff.role,
          method,
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
        await recordEvent(
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
