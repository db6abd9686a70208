"use client";

import { useTranslations } from "next-intl";
import type { ReactNode } from "react";

import { Button } from "@/components/ui/button";
import { DEFAULT_QUEUE } from "@/lib/cases/routing-rules";
import type { RoutingConfig } from "@/lib/cases/types";

import type { DraftQueue } from "./use-routing-draft";

export const routingInput = "rounded-md border border-slate-300 px-2 py-1";

/** A routing field's label: its name above the control (`children`), which `htmlFor` names. */
export function RoutingLabel({
  htmlFor,
  label,
  className = "flex flex-col gap-1",
  children,
}: {
  htmlFor: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <label className={className} htmlFor={htmlFor}>
      <span className="font-medium text-slate-800">{label}</span>
      {children}
    </label>
  );
}

/** One routing queue: its name, its members (each one a lead or not), and retiring it (never the default queue). */
export function RoutingQueueFieldset({
  id,
  queue,
  staff,
  staffName,
  onChange,
  onRetire,
}: {
  /** The prefix of the fields' ids. */
  id: string;
  queue: DraftQueue;
  staff: RoutingConfig["staff"];
  staffName: (userId: string) => string;
  onChange: (next: Partial<DraftQueue>) => void;
  onRetire: () => void;
}) {
  const t = useTranslations("cases.routing");
  return (
    <fieldset className="min-w-0 space-y-2 rounded-md border border-slate-200 bg-white p-4 text-sm">
      <legend className="px-1 font-semibold text-slate-900">{queue.name || t("unnamed")}</legend>
      <RoutingLabel htmlFor={`${id}-name`} label={t("queueName")}>
        <input
          id={`${id}-name`}
          className={`${routingInput} w-full max-w-sm`}
          value={queue.name}
          onChange={(event) => onChange({ name: event.target.value })}
        />
      </RoutingLabel>
      <ul className="space-y-1" aria-label={t("membersOf", { queue: queue.name || t("unnamed") })}>
        {queue.members.map((member, at) => (
          <li key={member.userId} className="flex flex-wrap items-center gap-3">
            <span>{staffName(member.userId)}</span>
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                className="size-4"
                checked={member.lead}
                onChange={(event) =>
                  onChange({ members: queue.members.map((item, i) => (i === at ? { ...item, lead: event.target.checked } : item)) })
                }
              />
              <span>{t("lead")}</span>
            </label>
            <Button
              variant="secondary"
              aria-label={t("removeMember", { name: staffName(member.userId) })}
              onClick={() => onChange({ members: queue.members.filter((_, i) => i !== at) })}
            >
              {t("remove")}
            </Button>
          </li>
        ))}
      </ul>
      <RoutingLabel htmlFor={`${id}-add`} label={t("addMember")}>
        <select
          id={`${id}-add`}
          className={`${routingInput} w-full max-w-sm`}
          value=""
          onChange={(event) => event.target.value && onChange({ members: [...queue.members, { userId: event.target.value, lead: false }] })}
        >
          <option value="">{t("chooseMember")}</option>
          {staff
            .filter((member) => !member.disabled && !queue.members.some((item) => item.userId === member.id))
            .map((member) => (
              <option key={member.id} value={member.id}>
                {member.name ? `${member.name} (${member.email})` : member.email}
              </option>
            ))}
        </select>
      </RoutingLabel>
      {queue.id === DEFAULT_QUEUE ? (
        <p className="text-slate-600">{t("defaultQueue")}</p>
      ) : (
        <Button variant="secondary" onClick={onRetire}>
          {t("retire", { queue: queue.name || t("unnamed") })}
        </Button>
      )}
    </fieldset>
  );
}
