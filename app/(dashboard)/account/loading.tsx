import { getTranslations } from "next-intl/server";

export default async function AccountLoading() {
  const t = await getTranslations("common");
  return (
    <p role="status" className="text-sm text-slate-600">
      {t("loading")}
    </p>
  );
}
