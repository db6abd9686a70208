import "server-only";

import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";

import { hasPermission } from "@/lib/auth/permissions";
import { currentPageUser, requirePageUser, type Access, type StageOptions } from "@/lib/auth/server/require-role";
import type { StaffSession } from "@/lib/auth/types";
import { memberConnection, narrowTo, usableConnections, type ConnectionGrant } from "@/lib/connections/server/access";
import { CONNECTION_HEADER, withConnection } from "@/lib/connections/server/bind";
import type { Connection } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";
import { withUpstreamSource } from "@/lib/upstream/call-count";

/*
 * A page's connection: the one its address names (/c/{connection}/…, set as a header by proxy.ts), else the member's
 * default. An address naming an unknown or retired connection, or one the member may not use, is the not-found page.
 * A page's guard (`requireConnectionPageUser`) checks the member's permission as it stands under that connection
 * (./access.ts): every signed-in page goes through it (test/connection-pages.test.ts).
 */

/** The signed-in member's grants, read with their session (null: every connection, or nobody signed in). */
const pageGrants = cache(async (): Promise<ConnectionGrant[] | null> => (await currentPageUser())?.connectionGrants ?? null);

// Once per render (React's per-request cache): the layout and the page both ask.
export const pageConnection = cache(async (): Promise<Connection> => {
  // `{connection};{proxy's mark}` (proxy.ts): the connection is what comes before the mark.
  const named = (await headers()).get(CONNECTION_HEADER)?.split(";")[0];
  try {
    return await memberConnection(await getDb(), named, await pageGrants());
  } catch (error) {
    // Unknown, retired, not the member's, or no connection open to them at all: the not-found page (never a redirect
    // to a page of this shell, which would ask again).
    if (error instanceof AppError && (error.code === "not_found" || error.code === "forbidden")) notFound();
    throw error;
  }
});

/** The live connections the signed-in member may use (the header's switcher). */
export async function pageConnections(): Promise<Connection[]> {
  return usableConnections(await getDb(), await pageGrants());
}

/**
 * The page guard: the signed-in member (else to sign-in, or to their sign-in's pending stage) holding `access` under
 * the page's connection (else the "not allowed" page), with the permissions that connection leaves them.
 */
export async function requireConnectionPageUser(access: Access, options: StageOptions = {}): Promise<StaffSession> {
  const member = await requirePageUser("signed_in", options);
  const user = narrowTo(member, await pageGrants(), (await pageConnection()).id);
  if (access !== "signed_in" && !hasPermission(user, access)) redirect("/not-allowed");
  return user;
}

/** Runs a page's upstream work under its connection, counted under `source` (lib/upstream/call-count.ts). */
export async function withPageUpstream<T>(source: string, work: () => Promise<T>): Promise<T> {
  const connection = await pageConnection();
  return withConnection(connection, () => withUpstreamSource(source, work));
}
