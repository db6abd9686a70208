"use client";

import { useTranslations } from "next-intl";

import { InviteStaffDialog } from "@/components/staff/invite-staff-dialog";
import { StaffAdmin } from "@/components/staff/staff-admin";

export function StaffPageClient({
  currentUserId,
  customRoles,
  ssoConfigured = false,
}: {
  currentUserId: string;
  customRoles: ReadonlyArray<{ id: string; name: string }>;
  /** Single sign-on is configured: each member can be set to sign in through it only. */
  ssoConfigured?: boolean;
}) {
  const t = useTranslations("staff");
  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold">{t("title")}</h1>
          <p className="mt-1 max-w-2xl text-sm text-slate-600">{t("intro")}</p>
        </div>
        <InviteStaffDialog customRoles={customRoles} />
      </div>
      <StaffAdmin currentUserId={currentUserId} ssoConfigured={ssoConfigured} />
    </section>
  );
}
