// Shared by the sign-in form, next-auth's redirect callback and the page guard.

export const DEFAULT_CALLBACK_PATH = "/verifications";

// Pages a sign-in must never return to: they would loop or leave the dashboard.
const EXCLUDED = /^\/(sign-in|api)(\/|$|\?|#)/;

/**
 * A path of this dashboard to go to after signing in, or the home page. The value is parsed as a URL against the
 * dashboard's origin and what comes back is the parser's normalised path, query and fragment, never the input:
 * dot segments are resolved first (`/.//evil`, `/x/..//evil`, `/%2e//evil` all become `//evil`), and a path that then
 * starts with `//` or `/\` (browsers read both as another host), even once percent-decoded, falls back. So do
 * another origin (`https://evil`, `javascript:`), backslashes and control characters anywhere (browsers treat
 * "\" as "/" and drop tabs and newlines), the sign-in and API paths, and garbage; nothing here throws.
 */
export function safeCallbackPath(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return DEFAULT_CALLBACK_PATH;
  if (!value.startsWith("/") || value.startsWith("//")) return DEFAULT_CALLBACK_PATH;
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return DEFAULT_CALLBACK_PATH;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return DEFAULT_CALLBACK_PATH;
  }
  if (url.origin !== BASE || !isPlainPath(url.pathname)) return DEFAULT_CALLBACK_PATH;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (EXCLUDED.test(path)) return DEFAULT_CALLBACK_PATH;
  return path;
}

// Stands in for the dashboard's origin: only a path resolved on it is kept.
const BASE = "http://dashboard.invalid";

/**
 * A normalised pathname that names a path of this host, however many times it is percent-decoded and normalised
 * again (`/%2F/evil`, `/%5Cevil` are refused too, in case something on the way decodes them). An encoded line
 * break stays: in the Location header it is inert text.
 */
function isPlainPath(pathname: string): boolean {
  let current = pathname;
  for (let round = 0; round < 4; round += 1) {
    if (!current.startsWith("/") || /^\/[\/\\]/.test(current)) return false;
    let decoded: URL;
    try {
      // Decoded and normalised again: `/.%2F%2Fevil` decodes to `/.//evil`, which resolves to `//evil`.
      const text = decodeURIComponent(current);
      if (text === current) return true;
      if (/^\/[\/\\]/.test(text)) return false;
      decoded = new URL(text, BASE);
    } catch {
      return true;
    }
    if (decoded.origin !== BASE) return false;
    current = decoded.pathname;
  }
  return false;
}

/** next-auth's redirect callback hands over absolute URLs on this origin: keep only their path. */
export function safeCallbackUrl(url: string, baseUrl: string): string {
  let candidate = url;
  if (url.startsWith(`${baseUrl}/`)) candidate = url.slice(baseUrl.length);
  return `${baseUrl}${safeCallbackPath(candidate)}`;
}
