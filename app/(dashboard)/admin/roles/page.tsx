import { getLocale, getTranslations } from "next-intl/server";

import { RoleCard } from "@/components/roles/role-card";
import { NewRoleButton, RolesActions, RolesNotice } from "@/components/roles/roles-actions";
import { TitleWithAction } from "@/components/ui/title-with-action";
import { isBuiltInRole } from "@/lib/auth/permissions";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import type { Locale } from "@/lib/i18n/locales";
import { pageTitle } from "@/lib/i18n/page-title";
import { permissionCatalogue } from "@/lib/roles/server/catalogue";
import { listRoles } from "@/lib/roles/server/roles";
import type { RoleDto } from "@/lib/roles/types";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("roles");

// /admin/roles (roles.manage): every role with its permissions, drawn on the server through the same functions the
// API uses; custom ones are created, edited and retired through islands (components/roles/roles-actions.tsx) whose
// requests have the page drawn again. The catalogue goes to the client once, for the editor's checkboxes.
export default async function RolesPage() {
  await requireConnectionPageUser("roles.manage");
  const locale = (await getLocale()) as Locale;
  const [roles, t] = await Promise.all([listRoles(await getDb()), getTranslations("roles")]);
  const catalogue = permissionCatalogue(locale);
  const labelOf = (role: RoleDto) => (role.builtIn && isBuiltInRole(role.id) ? t(`builtInNames.${role.id}`) : role.name);
  return (
    <ClientMessages namespaces={["roles"]}>
      <RolesActions catalogue={catalogue}>
        <section className="space-y-6">
          <TitleWithAction title={t("title")} intro={t("intro")} action={<NewRoleButton />} />
          <RolesNotice />
          <ul className="grid gap-4 lg:grid-cols-2">
            {roles.map((role) => (
              <RoleCard key={role.id} role={role} label={labelOf(role)} catalogue={catalogue} />
            ))}
          </ul>
        </section>
      </RolesActions>
    </ClientMessages>
  );
}
