import { NextResponse } from "next/server";

import { AppError } from "@/lib/shared/errors";

import type { ApiErrorBody } from "./errors";

/*
 * An address whose percent-encoding is not UTF-8 (`/api/verifications/%C0%AE`). Next cannot decode its dynamic
 * segments and, failing before any route runs, would answer a bare text/plain 500 without the security headers; the
 * proxy (proxy.ts) answers it first, with the error mapper's JSON shape (lib/api/errors.ts).
 */

/** The headers of the refusal: the API's own policy (next.config.mjs), never cached. */
const HEADERS = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
};

/** True when every segment of the path percent-decodes (as decodeURIComponent, which Next's routing uses). */
export function decodablePath(pathname: string): boolean {
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** 400 `bad_request` (its status in lib/api/errors.ts), as JSON, with the API's headers. */
export function malformedPathResponse(): NextResponse<ApiErrorBody> {
  const error = new AppError("bad_request", "The address is not valid: its percent-encoding is not UTF-8.");
  return NextResponse.json({ error: { code: error.code, message: error.message } }, { status: 400, headers: HEADERS });
}
