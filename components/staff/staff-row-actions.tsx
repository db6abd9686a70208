"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import type { StaffListEntry } from "@/lib/staff/types";
import type { UpdateStaffInput } from "@/lib/staff/validation";

import { useStaffRow } from "./staff-admin";

/** What a member's row buttons ask of the page: each is called with the member it is about. */
export interface StaffRowHandlers {
  onChange: (user: StaffListEntry, change: UpdateStaffInput) => void;
  onUnlock: (user: StaffListEntry) => void;
  onSessions: (user: StaffListEntry) => void;
  onConnections: (user: StaffListEntry) => void;
  onPickRole: (user: StaffListEntry) => void;
  onResetFactors: (user: StaffListEntry) => void;
  onSsoOnly: (user: StaffListEntry, ssoOnly: boolean) => void;
}

/*
 * One member's buttons at the end of their row, an island in the row the server draws; the buttons ask the page's
 * StaffAdmin (./staff-admin.tsx), which holds the dialogs and the requests. (the foot of their card below md). A role or access change
 * that would leave no active admin, or touch one's own account, is held here with the reason as its title;
 * the server enforces the rule regardless.
 */
export function StaffRowActions({
  user,
  locked,
  heldReason,
  factorCount,
  ssoOnly,
  ssoConfigured,
}: {
  user: StaffListEntry;
  locked: boolean;
  heldReason: string | undefined;
  factorCount: number | undefined;
  ssoOnly: boolean;
  ssoConfigured: boolean;
}) {
  const { busy, onChange, onUnlock, onSessions, onConnections, onPickRole, onResetFactors, onSsoOnly } = useStaffRow(user.id);
  const t = useTranslations("staff");
  const disableAction = user.disabled ? t("actions.enable") : t("actions.disable");
  const held = user.signIn.lockedUntil !== null || user.signIn.recentFailures > 0;
  const rowLabel = (action: string) => t("actions.rowLabel", { action, name: user.name });
  return (
    <div className="flex flex-wrap gap-2 md:justify-end">
      <Button
        variant="secondary"
        className="px-3 py-1"
        aria-haspopup="dialog"
        aria-label={rowLabel(t("sessions.button"))}
        onClick={() => onSessions(user)}
      >
        {t("sessions.button")}
      </Button>
      {factorCount !== 0 ? (
        <Button
          variant="secondary"
          className="px-3 py-1"
          disabled={busy}
          aria-haspopup="dialog"
          aria-label={rowLabel(t("factors.reset"))}
          onClick={() => onResetFactors(user)}
        >
          {t("factors.reset")}
        </Button>
      ) : null}
      {ssoConfigured ? (
        <Button
          variant="secondary"
          role="switch"
          aria-checked={ssoOnly}
          className="px-3 py-1"
          disabled={busy}
          aria-label={rowLabel(t("sso.label"))}
          onClick={() => onSsoOnly(user, !ssoOnly)}
        >
          <span
            aria-hidden
            className={`inline-block h-3 w-3 rounded-full border ${ssoOnly ? "border-brand-700 bg-brand-700" : "border-slate-400 bg-white"}`}
          />
          {t("sso.label")}
        </Button>
      ) : null}
      {held ? (
        <Button
          variant="secondary"
          className="px-3 py-1"
          disabled={busy}
          aria-label={rowLabel(t("unlock.button"))}
          onClick={() => onUnlock(user)}
        >
          {t("unlock.button")}
        </Button>
      ) : null}
      <Button
        variant="secondary"
        className="px-3 py-1"
        disabled={busy || locked}
        title={heldReason}
        aria-haspopup="dialog"
        aria-label={rowLabel(t("rolePicker.button"))}
        onClick={() => onPickRole(user)}
      >
        {t("rolePicker.button")}
      </Button>
      <Button
        variant={user.disabled ? "secondary" : "danger"}
        className="px-3 py-1"
        disabled={busy || locked}
        title={heldReason}
        aria-label={rowLabel(disableAction)}
        onClick={() => onChange(user, { disabled: !user.disabled })}
      >
        {disableAction}
      </Button>
      {/* Last: the row's main actions keep their place in the card (a phone shows them on the first screen). */}
      <Button
        variant="secondary"
        className="px-3 py-1"
        disabled={locked}
        title={heldReason}
        aria-haspopup="dialog"
        aria-label={rowLabel(t("connections.button"))}
        onClick={() => onConnections(user)}
      >
        {t("connections.button")}
      </Button>
    </div>
  );
}
