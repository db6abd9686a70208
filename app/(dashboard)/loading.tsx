import { getTranslations } from "next-intl/server";

export default async function Loading() {
  const t = await getTranslations("common");
  return (
    <p role="status" aria-live="polite" className="animate-pulse text-slate-500">
      {t("loading")}
    </p>
  );
}
