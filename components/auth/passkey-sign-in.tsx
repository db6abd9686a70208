"use client";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useTranslations } from "next-intl";
import { useState, useSyncExternalStore, type ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { passkeyProblemOf } from "@/lib/auth/passkey-errors";
import { apiRequest, nextAuthPost } from "@/lib/shared/api-client/api-request";

const noSubscription = () => () => undefined;
/** @simplewebauthn/browser's browserSupportsWebAuthn, without loading the library before a passkey is chosen. */
const browserSupportsWebAuthn = () => typeof globalThis.PublicKeyCredential === "function";

export type PasskeySignInProblem = "cancelled" | "unsupported" | "refused" | "failed";

/*
 * Sign-in with a passkey on its own (a discoverable credential, no email typed): request options from the
 * dashboard, the browser's ceremony, then next-auth's `passkey` credentials provider with the answer, the
 * same POST `signIn("passkey", { redirect: false })` makes, through `nextAuthPost` (the API client,
 * lib/shared/api-client/api-request.ts) so the sign-in page keeps not shipping next-auth's client. Shown only once the page is interactive and the browser can do
 * WebAuthn, so a page without JavaScript never offers a button that does nothing.
 */
export function PasskeySignIn({
  before,
  callbackPath,
  onStart,
  onFailure,
}: {
  /** Shown above the button, only when the button is. */
  before?: ReactNode;
  callbackPath: string;
  onStart: () => void;
  onFailure: (problem: PasskeySignInProblem) => void;
}) {
  const t = useTranslations("auth.signIn");
  // False on the server and before hydration; the browser's answer once the page is interactive.
  const supported = useSyncExternalStore(noSubscription, browserSupportsWebAuthn, () => false);
  const [pending, setPending] = useState(false);

  async function signIn() {
    setPending(true);
    onStart();
    let response: string;
    try {
      // The ceremony's library is loaded when a passkey is chosen (most sign-ins use a password), alongside the options.
      const [{ startAuthentication }, optionsJSON] = await Promise.all([
        import("@simplewebauthn/browser"),
        apiRequest<PublicKeyCredentialRequestOptionsJSON>("/api/auth/passkey/options", { method: "POST", body: {} }),
      ]);
      response = JSON.stringify(await startAuthentication({ optionsJSON }));
    } catch (error) {
      const problem = passkeyProblemOf(error);
      setPending(false);
      return onFailure(problem === "cancelled" || problem === "unsupported" ? problem : "failed");
    }
    try {
      const url = await nextAuthPost("/api/auth/callback/passkey", { response, callbackUrl: callbackPath });
      if (!url.searchParams.get("error")) {
        // A full navigation, so every server component renders with the new session cookie.
        window.location.assign(callbackPath);
        return;
      }
      onFailure("refused");
    } catch {
      onFailure("failed");
    }
    setPending(false);
  }

  if (!supported) return null;
  return (
    <>
      {before}
      <Button type="button" variant="secondary" className="w-full" pending={pending} onClick={() => void signIn()}>
        {t("passkey")}
      </Button>
    </>
  );
}
