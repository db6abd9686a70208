/**
 * POSTs to one of next-auth's endpoints the way its own client does (a fresh CSRF token, a form body,
 * `json=true`) and returns the URL next-auth would have redirected to. This is all the sign-in form and
 * the SSO button need of next-auth/react, which would add its whole client (session polling, broadcast
 * channel) to the sign-in page for it.
 */
export async function nextAuthPost(path: string, fields: Record<string, string>): Promise<URL> {
  const csrf = await fetch("/api/auth/csrf", { cache: "no-store" });
  const { csrfToken } = (await csrf.json()) as { csrfToken?: string };
  if (!csrfToken) throw new Error("no CSRF token");
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, csrfToken, json: "true" }),
  });
  const { url } = (await response.json()) as { url?: string };
  // next-auth answers its redirect as JSON (a 302 status without a Location), so `ok` says nothing here.
  if (!url) throw new Error(`${path} answered ${response.status} without a URL`);
  return new URL(url, window.location.origin);
}
