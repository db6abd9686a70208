import "server-only";

import { config } from "@/lib/config";
import type { StoredCapabilities } from "@/lib/connections/server/tables";
import { CoreClient } from "@/lib/upstream/core";
import { UpstreamError, UpstreamForbiddenError, UpstreamUnauthorizedError } from "@/lib/upstream/errors";

/*
 * Testing a key: what it can do, read off the service's answers, never asked of an admin. One list call (a page of
 * one): refused means no read permission (or an unknown key, or this server's address not allowed); a masked document
 * means no unmasked permission. When that page holds a verification, one files call of it tells the media
 * permission; an empty dataset leaves media unknown (null) until the first image is asked for.
 */

function problemOf(error: unknown): string {
  if (error instanceof UpstreamUnauthorizedError) return "upstream_unauthorized";
  if (error instanceof UpstreamForbiddenError) return error.reason === "ip_not_allowed" ? "upstream_ip_not_allowed" : "upstream_forbidden";
  if (error instanceof UpstreamError) return "upstream_unavailable";
  throw error;
}

export async function probeKey(coreApiKey: string): Promise<StoredCapabilities> {
  const client = CoreClient.fromConfig(config(), { id: "probe", version: 0, coreApiKey, partners: null });
  let first;
  try {
    first = (await client.listVerifications({ per_page: 1 })).items[0];
  } catch (error) {
    return { read: false, media: null, unmasked: null, problem: problemOf(error) };
  }
  if (!first) return { read: true, media: null, unmasked: null, problem: null };
  let media: boolean | null = true;
  try {
    await client.getVerificationFiles(first.publicId);
  } catch (error) {
    media = error instanceof UpstreamForbiddenError && error.reason === "permission" ? false : null;
  }
  return { read: true, media, unmasked: !first.documentMasked, problem: null };
}
