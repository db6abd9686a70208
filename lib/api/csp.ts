/*
 * The Content-Security-Policy of every page. Each response gets its own nonce (proxy.ts makes it); Next
 * reads the nonce from the request's CSP header and puts it on its own scripts, and 'strict-dynamic' lets
 * those scripts load the chunks they need, so no host list and no 'unsafe-inline' for scripts.
 * Style elements need the nonce too (the dialogs' scroll lock gets it through app/providers.tsx); style
 * attributes stay allowed, since React's style props write them and an attribute cannot load anything.
 */

export const NONCE_HEADER = "x-nonce";

/** 128 random bits, base64: unguessable and fresh per response. */
export function createNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

export function pageContentSecurityPolicy(
  nonce: string,
  { development = false, formTargets = [] }: { development?: boolean; formTargets?: string[] } = {},
): string {
  const directives = [
    "default-src 'self'",
    // React's development build evaluates code for its debugging aids; the production build never does.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    // Next's development server injects style elements without a nonce; the production build links files.
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    // Images are served by the app itself (media proxy); QR codes and previews may be data: or blob: URLs.
    "img-src 'self' data: blob:",
    // No web fonts: the pages use the system's faces (tailwind.config.ts).
    "font-src 'none'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    // Browsers apply form-action to a form's redirects too: signing out without JavaScript posts here and
    // is sent on to the identity provider's end-session endpoint, whose origin is listed when SSO is on.
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join("")}`,
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self' blob:",
  ];
  return directives.join("; ");
}
