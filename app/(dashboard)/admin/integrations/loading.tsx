import { getTranslations } from "next-intl/server";

// Shown while the registry is read on the server: the page's outline, so nothing jumps when it arrives.
export default async function Loading() {
  const t = await getTranslations("integrations");
  return (
    <div className="space-y-6" aria-busy="true">
      <h1 className="text-2xl font-semibold text-slate-900">{t("title")}</h1>
      <p role="status" className="text-sm text-slate-600">
        {t("list.refreshing")}
      </p>
      <div className="space-y-2 rounded-xl border border-slate-200 bg-white p-4" aria-hidden="true">
        {[0, 1, 2].map((row) => (
          <div key={row} className="h-6 animate-pulse rounded bg-slate-100" />
        ))}
      </div>
    </div>
  );
}
