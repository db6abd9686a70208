import { getTranslations } from "next-intl/server";

import { AppLink as Link } from "@/components/ui/app-link";
import { DEFAULT_CALLBACK_PATH } from "@/lib/auth/callback-url";
import { requirePageUser } from "@/lib/auth/server/require-role";
import { pageTitle } from "@/lib/i18n/page-title";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("auth.notAllowed");

// Where requirePageUser sends someone whose role does not cover the page they asked for.
export default async function NotAllowedPage() {
  await requirePageUser("signed_in");
  const t = await getTranslations("auth.notAllowed");
  return (
    <section className="max-w-xl">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="mt-2 text-slate-600">{t("body")}</p>
      <Link href={DEFAULT_CALLBACK_PATH} className="mt-4 inline-block text-sm font-medium text-brand-700 underline hover:text-brand-800">
        {t("home")}
      </Link>
    </section>
  );
}
