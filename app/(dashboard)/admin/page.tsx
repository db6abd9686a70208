import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";

import { ADMIN_SECTIONS } from "@/components/layout/nav-items";
import { AppLink as Link } from "@/components/ui/app-link";
import { hasPermission } from "@/lib/auth/server/require-role";
import { requireConnectionPageUser } from "@/lib/connections/server/page";

// `/admin`: the sections this member may use; none, and the page is not theirs.
export default async function AdminPage() {
  const user = await requireConnectionPageUser("signed_in");
  const sections = ADMIN_SECTIONS.filter((section) => hasPermission(user, section.permission));
  if (sections.length === 0) redirect("/not-allowed");
  const t = await getTranslations("common.adminHome");
  return (
    <section>
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
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
