"use client";

import { useTranslations } from "next-intl";
import { useState, type FormEvent } from "react";

import { PasskeySignIn, type PasskeySignInProblem } from "@/components/auth/passkey-sign-in";
import { SsoButton } from "@/components/auth/sso-button";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { signInErrorFrom, type SignInError } from "@/lib/auth/sign-in-errors";
import { nextAuthPost } from "@/lib/shared/api-client/api-request";

// What the form says when a passkey sign-in did not work (auth.signIn messages).
const PASSKEY_MESSAGES = {
  cancelled: "passkeyCancelled",
  unsupported: "passkeyUnsupported",
  refused: "passkeyRefused",
  failed: "failed",
} as const;

/*
 * The form is a real POST to next-auth's credentials callback, with its CSRF token and the way back, so
 * it works before (or without) JavaScript and credentials never land in a URL. Once the page is
 * interactive the submit goes to the same endpoint by fetch instead (as next-auth's client would, without
 * shipping it), which keeps the page and its messages. When password sign-in is off (PASSWORD_SIGN_IN=off)
 * the form is left out and single sign-on and passkeys remain.
 */

export function SignInForm({
  callbackPath,
  csrfToken,
  initialError,
  oidc,
  passwordSignIn = true,
}: {
  callbackPath: string;
  csrfToken: string | null;
  initialError: SignInError | null;
  oidc: boolean;
  /** Off: no password form (config().signIn.passwordSignIn). */
  passwordSignIn?: boolean;
}) {
  const t = useTranslations("auth.signIn");
  const [error, setError] = useState<SignInError | null>(initialError);
  const [passkeyProblem, setPasskeyProblem] = useState<PasskeySignInProblem | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    setPasskeyProblem(null);
    try {
      const url = await nextAuthPost("/api/auth/callback/credentials", {
        email: String(form.get("email") ?? ""),
        password: String(form.get("password") ?? ""),
        callbackUrl: callbackPath,
      });
      // Refused: next-auth points at its error page with the reason in `error`.
      const refused = url.searchParams.get("error");
      if (!refused) {
        // A full navigation, so every server component renders with the new session cookie.
        window.location.assign(callbackPath);
        return;
      }
      setError(signInErrorFrom(refused));
    } catch {
      setError({ kind: "failed" });
    }
    setPending(false);
  }

  const message = passkeyProblem
    ? t(PASSKEY_MESSAGES[passkeyProblem])
    : error?.kind === "locked"
      ? t("locked", { minutes: error.minutes })
      : error?.kind === "oidc"
        ? t(`oidc.${error.reason}`)
        : error
          ? t(error.kind)
          : null;

  const or = <p className="text-center text-xs tracking-wide text-slate-500 uppercase">{t("or")}</p>;

  return (
    <div className="space-y-6">
      {/* Always present, so screen readers announce a message as soon as it appears. */}
      <div aria-live="assertive">{message ? <Alert tone="error">{message}</Alert> : null}</div>
      {passwordSignIn ? (
        <form method="post" action="/api/auth/callback/credentials" onSubmit={onSubmit} className="space-y-4" noValidate>
          {csrfToken ? <input type="hidden" name="csrfToken" value={csrfToken} /> : null}
          <input type="hidden" name="callbackUrl" value={callbackPath} />
          <Field label={t("email")} name="email" type="email" autoComplete="username" required autoFocus spellCheck={false} />
          <Field label={t("password")} name="password" type="password" autoComplete="current-password" required />
          <Button type="submit" withoutScript pending={pending} className="w-full">
            {t("submit")}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-700">{t("passwordOff")}</p>
      )}
      {passwordSignIn && oidc ? or : null}
      <div className="space-y-3">
        <PasskeySignIn
          // Without single sign-on the passkey button is the only alternative, and says "or" itself once shown.
          before={passwordSignIn && !oidc ? or : null}
          callbackPath={callbackPath}
          onStart={() => {
            setError(null);
            setPasskeyProblem(null);
          }}
          onFailure={setPasskeyProblem}
        />
        {oidc ? (
          <SsoButton
            callbackPath={callbackPath}
            onFailure={() => {
              setPasskeyProblem(null);
              setError({ kind: "failed" });
            }}
          />
        ) : null}
      </div>
    </div>
  );
}
