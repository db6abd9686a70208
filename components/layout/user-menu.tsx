import { getTranslations } from "next-intl/server";

import { SignOutForm } from "@/components/auth/sign-out-form";
import { AppLink as Link } from "@/components/ui/app-link";
import { isBuiltInRole } from "@/lib/auth/permissions";
import type { StaffSession } from "@/lib/auth/types";

import { AwayToggleIsland } from "./away-switch";
import { ShellIsland } from "./shell-island";

/** Who is signed in, their role, the link to their account and security page, and the sign-out button: for the dashboard header. */
export async function UserMenu({ user }: { user: Pick<StaffSession, "email" | "name" | "role" | "customRoleName"> }) {
  const t = await getTranslations("auth.userMenu");
  return (
    <div role="group" aria-label={t("label")} className="flex items-center gap-3 text-sm">
      <span className="hidden text-right sm:block">
        <span className="block font-medium text-slate-900">{user.name || user.email}</span>
        <span className="block text-xs text-slate-600">
          {user.customRoleName ?? (isBuiltInRole(user.role) ? t(`role.${user.role}`) : user.role)}
        </span>
      </span>
      <AwayToggleIsland labels={{ away: t("away"), awayNow: t("awayNow"), back: t("back") }} />
      <Link href="/account" className="rounded-md px-2 py-1 text-slate-700 underline-offset-2 hover:bg-slate-100 hover:underline">
        {t("account")}
      </Link>
      <ShellIsland name="signOut" standIn={<SignOutForm />} />
    </div>
  );
}
