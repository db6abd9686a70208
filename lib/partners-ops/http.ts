import "server-only";

import { NextResponse } from "next/server";

import { isLocale, LOCALE_COOKIE, negotiateLocale, type Locale } from "@/i18n/locales";
import { ApiError } from "@/lib/api/errors";
import { clientAddress } from "@/lib/auth/address";
import { parseCookieHeader } from "@/lib/auth/require-role";
import { config } from "@/lib/config";

import type { Actor } from "./integrations";

// Small helpers shared by the partners-operations route handlers.

const MAX_BODY_BYTES = 16 * 1024;

/** The JSON body of a request, refused (400/413) when it is not JSON or too large to be a form. */
export async function readJson(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) throw new ApiError("bad_request", "Send the body as JSON (Content-Type: application/json).");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw new ApiError("payload_too_large");
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new ApiError("payload_too_large");
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError("bad_request", "The body is not valid JSON.");
  }
}

/** Who acts and from where, for the audit trail. */
export function auditContext(user: { id: string; email: string }, request: Request): { actor: Actor; ip: string | null } {
  return { actor: { id: user.id, email: user.email }, ip: clientAddress(request.headers, config().trustedProxies) };
}

/** The dashboard's language for this request: the user's choice (cookie), else Accept-Language. */
export function requestLocale(request: Request): Locale {
  const chosen = parseCookieHeader(request.headers.get("cookie"))[LOCALE_COOKIE];
  return isLocale(chosen) ? chosen : negotiateLocale(request.headers.get("accept-language"));
}

/** Every answer here may hold personal data or a key: never cached anywhere. */
export function noStoreJson<T>(body: T, init: { status?: number; headers?: Record<string, string> } = {}): NextResponse<T> {
  return NextResponse.json(body, { status: init.status ?? 200, headers: { "Cache-Control": "no-store", ...init.headers } });
}
