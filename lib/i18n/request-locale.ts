import "server-only";

import { parseCookieHeader } from "@/lib/shared/cookie-header";

import { chooseLocale, LOCALE_COOKIE, type Locale } from "./locales";

/** A route handler's request's language: the user's choice (cookie), else Accept-Language. */
export function requestLocale(request: Request): Locale {
  return chooseLocale(parseCookieHeader(request.headers.get("cookie"))[LOCALE_COOKIE], request.headers.get("accept-language"));
}
