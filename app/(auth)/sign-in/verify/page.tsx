import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";

import { PasskeyStepButton } from "@/components/auth/passkey-step-button";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { Button } from "@/components/ui/button";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { listFactors } from "@/lib/auth/server/factors";
import { currentPageUser } from "@/lib/auth/server/require-role";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";

import { verifySecondFactor } from "./actions";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("auth.secondFactor");

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// The sign-in's second step, after the password: a code from the authenticator app (or a recovery code), or
// the member's passkey. The code form is a plain form posting to a server action: it works without JavaScript.
export default async function SecondFactorPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackPath = safeCallbackPath(typeof params.callbackUrl === "string" ? params.callbackUrl : undefined);
  const user = await currentPageUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(callbackPath)}`);
  if (user.awaiting !== "second_factor") redirect(callbackPath);
  const factors = await listFactors(await getDb(), user.id);
  const hasPasskey = factors.some((factor) => factor.kind === "passkey");
  const hasApp = factors.some((factor) => factor.kind === "totp");
  const t = await getTranslations("auth.secondFactor");
  const error = params.error === "throttled" ? t("throttled") : params.error === "invalid" ? t("invalid") : null;
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{hasApp ? t("introApp") : t("introRecovery")}</p>
        {error ? (
          <p id="second-factor-error" role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            {error}
          </p>
        ) : null}
        <form action={verifySecondFactor} className="mt-6 space-y-4">
          <input type="hidden" name="callbackUrl" value={callbackPath} />
          <div>
            <label htmlFor="code" className="block text-sm font-medium text-slate-800">
              {t("code")}
            </label>
            <input
              id="code"
              name="code"
              required
              autoFocus
              autoComplete="one-time-code"
              inputMode="text"
              maxLength={32}
              aria-describedby={error ? "second-factor-error code-hint" : "code-hint"}
              aria-invalid={error ? true : undefined}
              className="mt-1 block w-full rounded-md border border-slate-400 px-3 py-2 font-mono text-base tracking-widest text-slate-900 focus:border-brand-600 focus:ring-2 focus:ring-brand-600 focus:outline-none"
            />
            <p id="code-hint" className="mt-1 text-xs text-slate-600">
              {t("codeHint")}
            </p>
          </div>
          <Button type="submit" withoutScript className="w-full">
            {t("submit")}
          </Button>
        </form>
        <ClientMessages namespaces={["auth.secondFactor", "auth.signOut"]}>
          {hasPasskey ? (
            <div className="mt-4 border-t border-slate-200 pt-4">
              <PasskeyStepButton callbackPath={callbackPath} />
            </div>
          ) : null}
          <div className="mt-4 text-center">
            <SignOutButton />
          </div>
        </ClientMessages>
      </div>
    </main>
  );
}
