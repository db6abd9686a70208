import "server-only";

import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { cache } from "react";

import { CONNECTION_HEADER, resolveConnection, withConnection } from "@/lib/connections/server/bind";
import type { Connection } from "@/lib/connections/server/store";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";
import { withUpstreamSource } from "@/lib/upstream/call-count";

/*
 * A page's connection: the one its address names (/c/{connection}/…, set as a header by proxy.ts), else the default.
 * An address naming an unknown or retired connection is the not-found page.
 */
// Once per render (React's per-request cache): the layout and the page both ask.
export const pageConnection = cache(async (): Promise<Connection> => {
  // `{connection};{proxy's mark}` (proxy.ts): the connection is what comes before the mark.
  const named = (await headers()).get(CONNECTION_HEADER)?.split(";")[0];
  try {
    return await resolveConnection(await getDb(), named);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
});

/** Runs a page's upstream work under its connection, counted under `source` (lib/upstream/call-count.ts). */
export async function withPageUpstream<T>(source: string, work: () => Promise<T>): Promise<T> {
  const connection = await pageConnection();
  return withConnection(connection, () => withUpstreamSource(source, work));
}
