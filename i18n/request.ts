import { getRequestConfig } from "next-intl/server";
import { cookies, headers } from "next/headers";

import { config } from "@/lib/config";

import { isLocale, LOCALE_COOKIE, negotiateLocale } from "./locales";
import { loadMessages } from "./messages";

// next-intl without locale routing: the language is the user's choice (cookie), else Accept-Language.
export default getRequestConfig(async () => {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  const locale = isLocale(chosen) ? chosen : negotiateLocale((await headers()).get("accept-language"));
  return {
    locale,
    messages: await loadMessages(locale),
    timeZone: config().displayTimeZone,
    now: new Date(),
  };
});
