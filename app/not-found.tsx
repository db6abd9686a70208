import { getTranslations } from "next-intl/server";

import { AppLink as Link } from "@/components/ui/app-link";

export default async function NotFound() {
  const t = await getTranslations("common.notFound");
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="mt-2 text-slate-600">{t("body")}</p>
      <Link href="/verifications" className="mt-6 inline-block font-medium text-brand-700 underline">
        {t("home")}
      </Link>
    </main>
  );
}
