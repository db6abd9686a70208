"use client";

import { useTranslations } from "next-intl";

import { InviteStaffDialog } from "@/components/staff/invite-staff-dialog";
import { StaffAdmin } from "@/components/staff/staff-admin";
import { TitleWithAction } from "@/components/ui/title-with-action";
import type { Permission } from "@/lib/auth/permissions";
import { roleChoices } from "@/lib/staff/rules";

export function StaffPageClient({
  currentUserId,
  customRoles,
  ssoConfigured = false,
}: {
  currentUserId: string;
  customRoles: ReadonlyArray<{ id: string; name: string; permissions: readonly Permission[] }>;
  /** Single sign-on is configured: each member can be set to sign in through it only. */
  ssoConfigured?: boolean;
}) {
  const t = useTranslations("staff");
  return (
    <section className="space-y-6">
      <TitleWithAction title={t("title")} intro={t("intro")} action={<InviteStaffDialog customRoles={customRoles} />} />
      <StaffAdmin currentUserId={currentUserId} roles={roleChoices(customRoles)} ssoConfigured={ssoConfigured} />
    </section>
  );
}
