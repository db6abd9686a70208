"use client";

import { useTranslations } from "next-intl";
import { useRef, useState, type FormEvent } from "react";

import { Button } from "@/components/ui/button";

/**
 * Starts single sign-on: a form POST to next-auth's OIDC sign-in, which answers with the redirect to the
 * provider (state, nonce and PKCE cookies set on the way). next-auth wants its CSRF token in that form, so
 * the token is fetched first. No next-auth client code is needed for it.
 */
export function SsoButton({ callbackPath, onFailure }: { callbackPath: string; onFailure: () => void }) {
  const t = useTranslations("auth.signIn");
  const token = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (token.current?.value) return; // second pass: the token is in, let the browser post
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    try {
      const response = await fetch("/api/auth/csrf", { cache: "no-store" });
      const { csrfToken } = (await response.json()) as { csrfToken?: string };
      if (!csrfToken || !token.current) throw new Error("no CSRF token");
      token.current.value = csrfToken;
      form.requestSubmit();
    } catch {
      setPending(false);
      onFailure();
    }
  }

  return (
    <form method="post" action="/api/auth/signin/oidc" onSubmit={(event) => void onSubmit(event)}>
      <input ref={token} type="hidden" name="csrfToken" defaultValue="" />
      <input type="hidden" name="callbackUrl" value={callbackPath} />
      <Button type="submit" variant="secondary" className="w-full" pending={pending}>
        {t("sso")}
      </Button>
    </form>
  );
}
