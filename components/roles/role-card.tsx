import { useTranslations } from "next-intl";

import { Badge } from "@/components/ui/badge";
import type { PermissionCatalogue, RoleDto } from "@/lib/roles/types";

import { RoleCardActions } from "./roles-actions";

/**
 * One role, drawn on the server: its name, kind, member count and permissions; a custom role also offers edit and
 * retire (an island, ./roles-actions.tsx).
 */
export function RoleCard({ role, label, catalogue }: { role: RoleDto; label: string; catalogue: PermissionCatalogue }) {
  const t = useTranslations("roles");
  const held = new Set(role.permissions);
  const entries = catalogue.groups.flatMap((group) => group.permissions).filter((permission) => held.has(permission.name));
  const headingId = `role-${role.id}`;
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" aria-labelledby={headingId} data-testid="role-card">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-semibold text-slate-900">
          {label}
        </h2>
        <div className="flex items-center gap-2">
          <Badge tone={role.builtIn ? "neutral" : "info"}>{role.builtIn ? t("builtIn") : t("custom")}</Badge>
          <span className="text-sm text-slate-600">{t("members", { count: role.members })}</span>
        </div>
      </div>
      <h3 className="sr-only">{t("permissionsCaption", { name: label })}</h3>
      {entries.length ? (
        <ul className="mt-3 flex flex-wrap gap-1">
          {entries.map((permission) => (
            <li key={permission.name}>
              <Badge>{permission.label}</Badge>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 text-sm text-slate-600">{t("noPermissions")}</p>
      )}
      {role.builtIn ? null : <RoleCardActions role={role} label={label} />}
    </li>
  );
}
