import { getTranslations } from "next-intl/server";

/** Placeholder body for a section whose feature lands in a later change. */
export async function ComingSoon({ title }: { title: string }) {
  const t = await getTranslations("common");
  return (
    <section>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="mt-2 text-slate-600">{t("comingSoon")}</p>
    </section>
  );
}
