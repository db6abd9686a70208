import "server-only";

import { z } from "zod";

import { recordEvent, type RequestContext } from "@/lib/audit-trail/server";
import { config } from "@/lib/config";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";

import { sessionToken } from "./require-role";
import { revokeSession } from "./sessions";

/*
 * Sign-out, without next-auth's client: the server-side session is revoked (a copied cookie stops
 * working) together with its audit event, and the browser is sent on. After a single sign-on that is
 * the provider's end_session_endpoint when its discovery document advertises one (OpenID Connect
 * RP-Initiated Logout 1.0), so the provider session ends too and the next "sign in with SSO" asks for
 * credentials again; the provider then sends the browser back to our sign-in page.
 */

const DISCOVERY_TTL_MS = 10 * 60_000;
const DISCOVERY_TIMEOUT_MS = 3000;

const discoverySchema = z.object({ end_session_endpoint: z.string().url().optional() });

let discovery: { issuer: string; at: number; endpoint: Promise<string | null> } | undefined;

/** The provider's end_session_endpoint, or null when it has none or cannot be asked right now. */
export function endSessionEndpoint(issuer: string, now = Date.now()): Promise<string | null> {
  if (discovery && discovery.issuer === issuer && now - discovery.at < DISCOVERY_TTL_MS) return discovery.endpoint;
  const endpoint = fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) })
    .then(async (response) => {
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      return discoverySchema.parse(await response.json()).end_session_endpoint ?? null;
    })
    .catch((error: unknown) => {
      // The local sign-out stands; only the provider's session is left open. Ask again next time.
      log.warn("oidc_discovery_failed", { error: error instanceof Error ? error.message : String(error) });
      discovery = undefined;
      return null;
    });
  discovery = { issuer, at: now, endpoint };
  return endpoint;
}

/**
 * Ends the session behind these cookies (if any is live) and says where the browser goes next: the
 * provider's logout for an OIDC session, else the sign-in page. `origin` is this site's, for the
 * address the provider sends the browser back to when NEXTAUTH_URL is not set.
 */
export async function signOut(
  db: Database,
  { cookies, context, origin }: { cookies: Record<string, string>; context: RequestContext; origin: string },
): Promise<string> {
  const token = await sessionToken(cookies);
  const signInUrl = new URL("/sign-in", config().publicUrl ?? origin).toString();
  if (!token) return signInUrl;
  const method = token.method ?? "password";
  await db.transaction(async (tx) => {
    if (!(await revokeSession(tx, token.sid))) return; // already ended: nothing new to record
    await recordEvent(
      {
        actor: { id: token.uid, email: token.email ?? null },
        action: "auth.sign_out",
        outcome: "success",
        ip: context.ip,
        details: { method },
      },
      tx,
    );
  });
  const oidc = config().oidc;
  const endpoint = method === "oidc" && oidc ? await endSessionEndpoint(oidc.issuer) : null;
  if (!endpoint) return signInUrl;
  const logout = new URL(endpoint);
  logout.searchParams.set("client_id", oidc!.clientId);
  logout.searchParams.set("post_logout_redirect_uri", signInUrl);
  return logout.toString();
}
