import { getTranslations } from "next-intl/server";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";

import { SignInForm } from "@/components/auth/sign-in-form";
import { safeCallbackPath } from "@/lib/auth/callback-url";
import { authCookies } from "@/lib/auth/server/cookies";
import { currentPageUser } from "@/lib/auth/server/require-role";
import { DEMO_ACCOUNTS } from "@/lib/auth/server/seed";
import { FORM_READY, signInErrorFrom } from "@/lib/auth/sign-in-errors";
import { config } from "@/lib/config";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("auth.signIn");

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** next-auth hands the callback back as an absolute URL on this host; the page works with paths. */
function callbackFrom(value: string | string[] | undefined, host: string | null): string {
  if (typeof value !== "string") return safeCallbackPath(undefined);
  try {
    const url = new URL(value);
    return safeCallbackPath(url.host === host ? `${url.pathname}${url.search}${url.hash}` : undefined);
  } catch {
    return safeCallbackPath(value);
  }
}

/**
 * next-auth's CSRF token, from its cookie (the cookie holds `token|hash`; next-auth checks the hash when
 * the form comes back). Without the cookie the page makes one trip through next-auth, which sets it and
 * sends the browser back here marked FORM_READY; the mark stops a loop when cookies are refused, and once
 * the cookie is there the page drops it from the address.
 */
async function csrfToken(callbackPath: string, marked: boolean): Promise<string | null> {
  const value = (await cookies()).get(authCookies().csrfToken.name)?.value;
  const token = value?.split("|")[0] || null;
  const back = new URLSearchParams({ callbackUrl: callbackPath });
  if (!token && !marked) redirect(`/api/auth/signin?${new URLSearchParams({ callbackUrl: callbackPath, error: FORM_READY })}`);
  if (token && marked) redirect(`/sign-in?${back}`);
  return token;
}

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackPath = callbackFrom(params.callbackUrl, (await headers()).get("host"));
  // Already signed in: straight on.
  if (await currentPageUser()) redirect(callbackPath);
  const token = await csrfToken(callbackPath, params.error === FORM_READY);

  const t = await getTranslations("auth.signIn");
  const settings = config();
  const error = signInErrorFrom(typeof params.error === "string" ? params.error : null);
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <p className="text-center text-sm font-semibold tracking-wide text-brand-700 uppercase">
          {(await getTranslations("common"))("appName")}
        </p>
        <div className="mt-3 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
          <p className="mt-1 text-sm text-slate-600">{t("subtitle")}</p>
          {token ? null : (
            <p role="alert" className="mt-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              {t("cookiesNeeded")}
            </p>
          )}
          <div className="mt-6">
            <ClientMessages namespaces={["auth.signIn"]}>
              <SignInForm
                callbackPath={callbackPath}
                csrfToken={token}
                initialError={error}
                oidc={Boolean(settings.oidc)}
                passwordSignIn={settings.signIn.passwordSignIn}
              />
            </ClientMessages>
          </div>
        </div>
        {settings.seedDemoAccounts ? (
          <section
            aria-labelledby="demo-accounts"
            className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
          >
            <h2 id="demo-accounts" className="font-semibold">
              {t("demoTitle")}
            </h2>
            <p className="mt-1">{t("demoBody")}</p>
            <ul className="mt-2 space-y-1 font-mono text-xs">
              {DEMO_ACCOUNTS.map((account) => (
                <li key={account.email}>
                  {account.role === "admin" ? t("demoAdmin") : t("demoAnalyst")}: {account.email} / {account.password}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </main>
  );
}
