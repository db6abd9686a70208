"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { Button } from "@/components/ui/button";

/**
 * Starts single sign-on through next-auth's OIDC sign-in endpoint, which sets the state, nonce and PKCE
 * cookies and names the provider's authorization URL; the browser then goes there. next-auth wants its
 * CSRF token with that POST. Asked with `json=true` and followed by a navigation (rather than a form post
 * that the server redirects), so a CSP `form-action 'self'` does not block the hop to the provider; and
 * no next-auth client code is needed.
 */
export function SsoButton({ callbackPath, onFailure }: { callbackPath: string; onFailure: () => void }) {
  const t = useTranslations("auth.signIn");
  const [pending, setPending] = useState(false);

  async function start() {
    setPending(true);
    try {
      const csrf = await fetch("/api/auth/csrf", { cache: "no-store" });
      const { csrfToken } = (await csrf.json()) as { csrfToken?: string };
      if (!csrfToken) throw new Error("no CSRF token");
      const response = await fetch("/api/auth/signin/oidc", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, callbackUrl: callbackPath, json: "true" }),
      });
      const { url } = (await response.json()) as { url?: string };
      // next-auth answers the redirect as JSON (status 302 without a Location), so `ok` says nothing here.
      if (!url) throw new Error(`sign-in answered ${response.status} without a URL`);
      window.location.assign(url);
    } catch {
      setPending(false);
      onFailure();
    }
  }

  return (
    <Button type="button" variant="secondary" className="w-full" pending={pending} onClick={() => void start()}>
      {t("sso")}
    </Button>
  );
}
