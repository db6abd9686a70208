// Shared by the sign-in form, next-auth's redirect callback and the page guard.

export const DEFAULT_CALLBACK_PATH = "/verifications";

// Pages a sign-in must never return to: they would loop or leave the dashboard.
const EXCLUDED = /^\/(sign-in|api)(\/|$|\?|#)/;

/**
 * A path of this dashboard to go to after signing in, or the home page. Anything else — another origin
 * (`https://evil`), a protocol-relative URL (`//evil`, `/\evil`, which browsers read as `//evil`),
 * control characters, garbage — falls back instead of being followed or throwing.
 */
export function safeCallbackPath(value: unknown): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return DEFAULT_CALLBACK_PATH;
  if (!value.startsWith("/") || value.startsWith("//")) return DEFAULT_CALLBACK_PATH;
  // Browsers treat "\" as "/" and drop tabs and newlines inside URLs; none belongs in a path here.
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return DEFAULT_CALLBACK_PATH;
  const base = "http://dashboard.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return DEFAULT_CALLBACK_PATH;
  }
  if (url.origin !== base) return DEFAULT_CALLBACK_PATH;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (EXCLUDED.test(path)) return DEFAULT_CALLBACK_PATH;
  return path;
}

/** next-auth's redirect callback hands over absolute URLs on this origin: keep only their path. */
export function safeCallbackUrl(url: string, baseUrl: string): string {
  let candidate = url;
  if (url.startsWith(`${baseUrl}/`)) candidate = url.slice(baseUrl.length);
  return `${baseUrl}${safeCallbackPath(candidate)}`;
}
