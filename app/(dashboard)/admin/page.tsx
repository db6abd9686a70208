import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";

import { ADMIN_SECTIONS } from "@/components/layout/nav-items";
import { Alert } from "@/components/ui/alert";
import { AppLink as Link } from "@/components/ui/app-link";
import { hasPermission } from "@/lib/auth/server/require-role";
import { pageConnection, requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { deliveriesFailing } from "@/lib/webhooks/server/health";

// `/admin`: the sections this member may use; none, and the page is not theirs.
export default async function AdminPage() {
  const user = await requireConnectionPageUser("signed_in");
  const sections = ADMIN_SECTIONS.filter((section) => hasPermission(user, section.permission));
  if (sections.length === 0) redirect("/not-allowed");
  const t = await getTranslations("common.adminHome");
  const failing = hasPermission(user, "integrations.manage") && (await deliveriesFailing(await getDb(), (await pageConnection()).id));
  return (
    <section>
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      {failing ? (
        <div className="mt-4">
          <Alert
            tone="warning"
            title={t("deliveriesFailing")}
            action={
              <Link href="/admin/integrations#deliveries" className="font-medium underline">
                {t("deliveriesFailingLink")}
              </Link>
            }
          />
        </div>
      ) : null}
      <ul className="mt-6 grid gap-4 sm:grid-cols-3">
        {sections.map((section) => (
          <li key={section.href}>
            <Link
              href={section.href}
              className="block h-full rounded-lg border border-slate-200 bg-white p-5 shadow-sm hover:border-brand-600"
            >
              <span className="text-base font-semibold text-slate-900">{t(`${section.key}.title`)}</span>
              <span className="mt-1 block text-sm text-slate-600">{t(`${section.key}.body`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
