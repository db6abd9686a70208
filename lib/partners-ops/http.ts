import "server-only";

import { isLocale, LOCALE_COOKIE, negotiateLocale, type Locale } from "@/i18n/locales";
import { parseCookieHeader } from "@/lib/auth/require-role";

/** The dashboard's language for this request: the user's choice (cookie), else Accept-Language. */
export function requestLocale(request: Request): Locale {
  const chosen = parseCookieHeader(request.headers.get("cookie"))[LOCALE_COOKIE];
  return isLocale(chosen) ? chosen : negotiateLocale(request.headers.get("accept-language"));
}
