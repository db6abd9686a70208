import { getTranslations } from "next-intl/server";

import { Providers } from "@/app/providers";
import { ChangePasswordForm } from "@/components/staff/change-password-form";
import { QueryProvider } from "@/components/ui/query-provider";
import { DEFAULT_CALLBACK_PATH } from "@/lib/auth/callback-url";
import { requirePageUser } from "@/lib/auth/server/require-role";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("auth.changePassword");

// Where an invited person lands after signing in with their one-time password; anyone signed in may use it.
export default async function ChangePasswordPage() {
  await requirePageUser("signed_in", { during: ["password_change"] });
  const t = await getTranslations("auth.changePassword");
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
        <div className="mt-6">
          {/* Signed in but outside the dashboard's shell: the step-up dialog's provider, and react-query's for the
              form's mutation (the sign-in page loads none of either). */}
          {/* The step-up dialog's words too: past the sign-in's grace, the change asks for the second factor. */}
          <ClientMessages namespaces={["auth.changePassword", "stepUp"]}>
            <Providers>
              <QueryProvider>
                <ChangePasswordForm nextPath={DEFAULT_CALLBACK_PATH} />
              </QueryProvider>
            </Providers>
          </ClientMessages>
        </div>
      </div>
    </main>
  );
}
