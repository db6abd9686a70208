"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";

import { Button } from "@/components/ui/button";
import { nextAuthPost } from "@/lib/shared/api-client/api-request";

/**
 * Starts single sign-on through next-auth's OIDC sign-in endpoint, which sets the state, nonce and PKCE
 * cookies and names the provider's authorization URL; the browser then goes there. next-auth wants its
 * CSRF token with that POST (`nextAuthPost`, lib/shared/api-client/api-request.ts). Asked with `json=true` and
 * followed by a navigation (rather than a form post that the server redirects), so a CSP `form-action 'self'` does
 * not block the hop to the provider; and no next-auth client code is needed. Like every plain button, it is drawn
 * disabled until the page's code runs (`BareButton`): pressed earlier, on a slow first load, it did nothing at all.
 */
export function SsoButton({ callbackPath, onFailure }: { callbackPath: string; onFailure: () => void }) {
  const t = useTranslations("auth.signIn");
  const [pending, setPending] = useState(false);

  async function start() {
    setPending(true);
    try {
      const url = await nextAuthPost("/api/auth/signin/oidc", { callbackUrl: callbackPath });
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
