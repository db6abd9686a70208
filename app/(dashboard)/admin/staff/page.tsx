import { getTranslations } from "next-intl/server";

import { InviteStaffDialog } from "@/components/staff/invite-staff-dialog";
import { StaffAdmin, StaffNotice } from "@/components/staff/staff-admin";
import { StaffTable } from "@/components/staff/staff-table";
import { TitleWithAction } from "@/components/ui/title-with-action";
import { config } from "@/lib/config";
import { requireConnectionPageUser } from "@/lib/connections/server/page";
import { getDb } from "@/lib/db/client";
import { ClientMessages } from "@/lib/i18n/client-messages";
import { pageTitle } from "@/lib/i18n/page-title";
import { listRoles } from "@/lib/roles/server/roles";
import { roleChoices } from "@/lib/staff/rules";
import { listStaffWithSignInState } from "@/lib/staff/server/staff";

export const dynamic = "force-dynamic";

export const generateMetadata = pageTitle("staff");

// Staff accounts (admin): the list is drawn here, on the server, through the same query the API uses; the invite
// dialog and each row's buttons are islands (components/staff/staff-admin.tsx) whose requests have it drawn again.
export default async function StaffPage() {
  const user = await requireConnectionPageUser("staff.manage");
  const db = await getDb();
  const [staff, roles, t] = await Promise.all([listStaffWithSignInState(db), listRoles(db), getTranslations("staff")]);
  // The invitation and the role picker offer the live custom roles too (a staff manager need not hold roles.manage to give one).
  const customRoles = roles.filter((role) => !role.builtIn).map(({ id, name, permissions }) => ({ id, name, permissions }));
  return (
    <ClientMessages namespaces={["staff", "errors"]}>
      <StaffAdmin currentUserId={user.id} roles={roleChoices(customRoles)}>
        <section className="space-y-6">
          <TitleWithAction title={t("title")} intro={t("intro")} action={<InviteStaffDialog customRoles={customRoles} />} />
          <StaffNotice />
          <StaffTable staff={staff} currentUserId={user.id} ssoConfigured={config().oidc !== undefined} />
        </section>
      </StaffAdmin>
    </ClientMessages>
  );
}
