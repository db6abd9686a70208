import { getRequestConfig } from "next-intl/server";
import { cookies, headers } from "next/headers";

import { config } from "@/lib/config";

import { chooseLocale, LOCALE_COOKIE } from "./locales";
import { loadMessages } from "./messages";

// next-intl without locale routing: the language is the user's choice (cookie), else Accept-Language
// (route handlers: lib/i18n/request-locale.ts).
export default getRequestConfig(async () => {
  const locale = chooseLocale((await cookies()).get(LOCALE_COOKIE)?.value, (await headers()).get("accept-language"));
  return {
    locale,
    messages: await loadMessages(locale),
    timeZone: config().displayTimeZone,
    now: new Date(),
  };
});
