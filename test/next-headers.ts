import { getPathMatch } from "next/dist/shared/lib/router/utils/path-match";

import nextConfig from "@/next.config.mjs";

/*
 * The headers a browser receives for an answer, as a Next server sends it: the rules of next.config.mjs `headers()`
 * that match the path, in order (a later rule's header replaces an earlier one of the same name), then the handler's
 * own headers, each only where no rule already set that name (next/dist/server/send-response.js appends a header
 * only when it is not present yet). So a handler cannot change a header next.config.mjs sets: this shows what wins.
 */
export async function sentHeaders(pathname: string, answer?: Response): Promise<Headers> {
  const fromRules = new Map<string, string>();
  for (const rule of (await nextConfig.headers?.()) ?? []) {
    if (!getPathMatch(rule.source, { removeUnnamedParams: true, strict: true })(pathname)) continue;
    for (const { key, value } of rule.headers) fromRules.set(key.toLowerCase(), value);
  }
  const sent = new Headers([...fromRules]);
  answer?.headers.forEach((value, name) => {
    if (!sent.has(name)) sent.set(name, value);
  });
  return sent;
}
