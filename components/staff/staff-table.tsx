import { useFormatter, useTranslations } from "next-intl";

import { StaffRowActions } from "@/components/staff/staff-row-actions";
import { Badge } from "@/components/ui/badge";
import { DataBody, DataCell, DataHead, DataHeader, DataRow, DataTable } from "@/components/ui/data-table";
import { DATE_TIME_FORMAT } from "@/lib/shared/date-format";
import type { StaffListEntry } from "@/lib/staff/types";

/** What the list may say about a member's sign-in security (fields the staff DTO gains with second factors). */
type SecurityFields = { factorCount?: number; ssoOnly?: boolean };
const security = (user: StaffListEntry) => user as StaffListEntry & SecurityFields;

/*
 * The staff list, drawn on the server, with its row actions (client islands). The buttons that would leave no active admin are disabled
 * here for clarity, but the rule itself is enforced by the server in a transaction. The second-factor
 * column appears once the list carries `factorCount`; the single-sign-on-only switch when single sign-on
 * is configured.
 */
export function StaffTable({
  staff,
  currentUserId,
  ssoConfigured = false,
}: {
  staff: StaffListEntry[];
  currentUserId: string;
  ssoConfigured?: boolean;
}) {
  const t = useTranslations("staff");
  const format = useFormatter();
  const activeAdmins = staff.filter((user) => user.role === "admin" && !user.disabled).length;
  const showFactors = staff.some((user) => typeof security(user).factorCount === "number");

  return (
    // One card per member below md (components/ui/data-table.tsx): the row's actions at the foot of its card,
    // never behind a sideways scroll. From md up the table may scroll sideways inside a named, focusable region.
    <div>
      <DataTable caption={t("table.caption")} label={t("table.caption")}>
        <DataHead>
          <DataHeader>{t("table.name")}</DataHeader>
          <DataHeader>{t("table.email")}</DataHeader>
          <DataHeader>{t("table.role")}</DataHeader>
          <DataHeader>{t("table.status")}</DataHeader>
          <DataHeader>{t("table.signIn")}</DataHeader>
          {showFactors ? <DataHeader>{t("table.factors")}</DataHeader> : null}
          <DataHeader>{t("table.usageToday")}</DataHeader>
          <DataHeader>{t("table.lastSignIn")}</DataHeader>
          <DataHeader className="text-right">{t("table.actions")}</DataHeader>
        </DataHead>
        <DataBody>
          {staff.map((user) => {
            const lastAdmin = user.role === "admin" && !user.disabled && activeAdmins <= 1;
            // Nobody changes their own role or access (the server refuses it: 403 own_access).
            const self = user.id === currentUserId;
            const heldReason = self ? t("actions.ownAccount") : lastAdmin ? t("actions.lastAdmin") : undefined;
            const { factorCount, ssoOnly = false } = security(user);
            return (
              <DataRow key={user.id} className="align-middle">
                <DataCell rowHeader kind="title" className="font-medium text-slate-900">
                  {user.name} {user.id === currentUserId ? <span className="font-normal text-slate-600">{t("table.you")}</span> : null}
                </DataCell>
                <DataCell label={t("table.email")} className="text-slate-700">
                  <span className="break-all">{user.email}</span>
                </DataCell>
                <DataCell label={t("table.role")}>
                  <Badge tone={user.role === "admin" ? "info" : "neutral"}>{user.customRoleName ?? t(`roles.${user.role}`)}</Badge>
                </DataCell>
                <DataCell label={t("table.status")}>
                  {user.disabled ? (
                    <Badge tone="danger">{t("status.disabled")}</Badge>
                  ) : user.mustChangePassword ? (
                    <Badge tone="warning">{t("status.invited")}</Badge>
                  ) : (
                    <Badge tone="success">{t("status.active")}</Badge>
                  )}
                  {user.away && !user.disabled ? (
                    <Badge tone="neutral" className="ml-1">
                      {t("status.away")}
                    </Badge>
                  ) : null}
                </DataCell>
                <DataCell label={t("table.signIn")} className="text-slate-700">
                  {user.signIn.lockedUntil ? (
                    <Badge tone="warning">
                      {t("signIn.locked", {
                        addresses: user.signIn.lockedAddresses,
                        until: format.dateTime(new Date(user.signIn.lockedUntil), { timeStyle: "short" }),
                      })}
                    </Badge>
                  ) : user.signIn.recentFailures > 0 ? (
                    <span className="text-xs">{t("signIn.failures", { count: user.signIn.recentFailures })}</span>
                  ) : (
                    <span className="text-xs text-slate-600">{t("signIn.clear")}</span>
                  )}
                </DataCell>
                {showFactors ? (
                  <DataCell label={t("table.factors")} data-testid="second-factors">
                    {typeof factorCount !== "number" ? null : factorCount > 0 ? (
                      <Badge tone="success">{t("factors.count", { count: factorCount })}</Badge>
                    ) : (
                      <span className="text-xs text-slate-600">{t("factors.none")}</span>
                    )}
                  </DataCell>
                ) : null}
                <DataCell label={t("table.usageToday")} className="text-xs text-slate-700" data-testid="usage-today">
                  {t("usage.summary", { ...user.usageToday })}
                </DataCell>
                <DataCell label={t("table.lastSignIn")} className="text-slate-700">
                  {user.lastSignInAt ? format.dateTime(new Date(user.lastSignInAt), DATE_TIME_FORMAT) : t("table.never")}
                </DataCell>
                <DataCell kind="actions" data-row-actions="">
                  <StaffRowActions
                    user={user}
                    locked={lastAdmin || self}
                    heldReason={heldReason}
                    factorCount={factorCount}
                    ssoOnly={ssoOnly}
                    ssoConfigured={ssoConfigured}
                  />
                </DataCell>
              </DataRow>
            );
          })}
        </DataBody>
      </DataTable>
      {staff.length === 0 ? <p className="p-4 text-sm text-slate-600">{t("empty")}</p> : null}
    </div>
  );
}
