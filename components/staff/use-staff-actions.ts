"use client";

import { useState } from "react";

import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { resetStaffFactors, setStaffSsoOnly, unlockStaffSignIn, updateStaff } from "@/lib/staff/requests";
import { permissionsLost } from "@/lib/staff/rules";
import type { RoleChoice, StaffListEntry } from "@/lib/staff/types";
import type { UpdateStaffInput } from "@/lib/staff/validation";

// Taking access away (disabling, a role that lacks any permission of the current one) asks first; giving it
// (re-enable, a role holding at least as much) and unlocking act at once.
const needsConfirmation = (roles: readonly RoleChoice[], user: StaffListEntry, change: UpdateStaffInput) =>
  change.disabled === true || (change.role !== undefined && permissionsLost(roles, user.role, change.role).length > 0);

/**
 * What an admin does to the staff list's members, and where each action stands: the member whose row is
 * busy, the change or factor reset waiting for confirmation, the last success to report, whose sessions or role
 * picker are open. `roles` are the roles the picker offers, which say whether a role change takes permissions away.
 * Each request has the page drawn again once it has settled (the list is drawn on the server).
 */
export function useStaffActions(roles: readonly RoleChoice[]) {
  const update = useRefreshingRequest(updateStaff);
  const unlock = useRefreshingRequest(unlockStaffSignIn);
  const resetFactors = useRefreshingRequest(resetStaffFactors);
  const ssoOnly = useRefreshingRequest(setStaffSsoOnly);
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ user: StaffListEntry; change: UpdateStaffInput } | null>(null);
  const [unlocked, setUnlocked] = useState<string | null>(null);
  const [sessionsOf, setSessionsOf] = useState<StaffListEntry | null>(null);
  const [connectionsOf, setConnectionsOf] = useState<StaffListEntry | null>(null);
  const [picking, setPicking] = useState<StaffListEntry | null>(null);
  // The reset asks first; it needs a step-up, which the step-up dialog asks for on top of this one.
  const [resetting, setResetting] = useState<StaffListEntry | null>(null);
  const [reset, setReset] = useState<{ name: string; removed: number } | null>(null);
  // Single sign-on only, turned on or off for whom.
  const [ssoSet, setSsoSet] = useState<{ name: string; on: boolean } | null>(null);

  function clearNotices() {
    setUnlocked(null);
    setReset(null);
    setSsoSet(null);
    ssoOnly.reset();
  }

  function apply(user: StaffListEntry, change: UpdateStaffInput) {
    setPendingId(user.id);
    clearNotices();
    update.mutate(
      { id: user.id, change },
      {
        onSuccess: () => {
          setConfirming(null);
          setPicking(null);
        },
        onSettled: () => setPendingId(null),
      },
    );
  }

  function change(user: StaffListEntry, next: UpdateStaffInput) {
    if (!needsConfirmation(roles, user, next)) return apply(user, next);
    update.reset();
    setPicking(null);
    setConfirming({ user, change: next });
  }

  /** The staff table's row actions. */
  const rowActions = {
    onChange: change,
    onPickRole: (user: StaffListEntry) => {
      update.reset();
      setPicking(user);
    },
    onUnlock: (user: StaffListEntry) => {
      setPendingId(user.id);
      clearNotices();
      unlock.mutate(
        { id: user.id },
        {
          onSuccess: () => setUnlocked(user.name),
          onSettled: () => setPendingId(null),
        },
      );
    },
    onSessions: setSessionsOf,
    onConnections: setConnectionsOf,
    onResetFactors: (user: StaffListEntry) => {
      resetFactors.reset();
      setResetting(user);
    },
    onSsoOnly: (user: StaffListEntry, next: boolean) => {
      setPendingId(user.id);
      clearNotices();
      ssoOnly.mutate(
        { id: user.id, ssoOnly: next },
        {
          onSuccess: () => setSsoSet({ name: user.name, on: next }),
          onSettled: () => setPendingId(null),
        },
      );
    },
  };

  function confirmChange() {
    if (confirming) apply(confirming.user, confirming.change);
  }

  function confirmReset() {
    if (!resetting) return;
    const member = resetting;
    clearNotices();
    resetFactors.mutate(
      { id: member.id },
      {
        onSuccess: ({ removed }) => {
          setReset({ name: member.name, removed });
          setResetting(null);
        },
      },
    );
  }

  return {
    update,
    unlock,
    resetFactors,
    ssoOnly,
    ssoSet,
    pendingId,
    confirming,
    unlocked,
    reset,
    resetting,
    sessionsOf,
    connectionsOf,
    picking,
    rowActions,
    chooseRole: (user: StaffListEntry, role: string) => change(user, { role }),
    closePicker: () => setPicking(null),
    confirmChange,
    confirmReset,
    cancelConfirm: () => setConfirming(null),
    cancelReset: () => setResetting(null),
    closeSessions: () => setSessionsOf(null),
    closeConnections: () => setConnectionsOf(null),
  };
}

export type StaffActions = ReturnType<typeof useStaffActions>;
