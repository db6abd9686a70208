"use client";

import { useTranslations } from "next-intl";
import { useId, useState } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useRouting, useSaveRouting } from "@/lib/cases/routing-hooks";
import { DEFAULT_QUEUE, type RoutingConditions } from "@/lib/cases/routing-rules";
import type { RoutingConfigInput } from "@/lib/cases/routing-validation";
import { RED_FLAGS } from "@/lib/cases/rules";
import type { RoutingConfig } from "@/lib/cases/types";

// The form's state: conditions as the stored shape (flags are only ever ticked from RED_FLAGS); the server's
// schema checks them again on save.
type Draft = Omit<RoutingConfigInput, "rules"> & { rules: Array<{ id?: string; queueId: string; conditions: RoutingConditions }> };

function draftOf(config: RoutingConfig): Draft {
  return {
    autoAssign: config.autoAssign,
    capacity: config.capacity,
    queues: config.queues.map((queue) => ({ id: queue.id, name: queue.name, members: queue.members })),
    rules: config.rules.map((rule) => ({ id: rule.id, queueId: rule.queueId, conditions: rule.conditions })),
  };
}

const list = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

const input = "rounded-md border border-slate-300 px-2 py-1";

export function CaseRoutingPageClient() {
  const t = useTranslations("cases.routing");
  const routing = useRouting();
  if (routing.isError) return <Alert tone="error" title={routing.error.message} />;
  if (!routing.data) return <p>{t("loading")}</p>;
  return <RoutingEditor config={routing.data} />;
}

function RoutingEditor({ config }: { config: RoutingConfig }) {
  const t = useTranslations("cases.routing");
  const tFlags = useTranslations("cases.flags");
  const save = useSaveRouting();
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(config));
  const [saved, setSaved] = useState(false);
  const staffName = (userId: string) => {
    const member = config.staff.find((staff) => staff.id === userId);
    return member
      ? `${member.name || member.email}${member.away ? ` · ${t("away")}` : ""}${member.disabled ? ` · ${t("disabled")}` : ""}`
      : userId;
  };
  const queueName = (queueId: string) => draft.queues.find((queue) => queue.id === queueId)?.name || t("unnamed");

  function change(next: Partial<Draft>) {
    setSaved(false);
    setDraft((current) => ({ ...current, ...next }));
  }
  function changeQueue(index: number, next: Partial<Draft["queues"][number]>) {
    change({ queues: draft.queues.map((queue, at) => (at === index ? { ...queue, ...next } : queue)) });
  }
  function changeRule(index: number, conditions: RoutingConditions, queueId?: string) {
    change({ rules: draft.rules.map((rule, at) => (at === index ? { ...rule, queueId: queueId ?? rule.queueId, conditions } : rule)) });
  }
  function moveRule(index: number, by: -1 | 1) {
    const rules = [...draft.rules];
    const [rule] = rules.splice(index, 1);
    rules.splice(index + by, 0, rule!);
    change({ rules });
  }

  return (
    <form
      className="space-y-6"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(draft as RoutingConfigInput, {
          onSuccess: (data) => {
            setDraft(draftOf(data));
            setSaved(true);
          },
        });
      }}
    >
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-600">{t("intro")}</p>
      </div>

      <fieldset className="space-y-2 rounded-md border border-slate-200 bg-white p-4">
        <legend className="px-1 font-semibold text-slate-900">{t("assignment")}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4"
            checked={draft.autoAssign}
            onChange={(event) => change({ autoAssign: event.target.checked })}
          />
          <span>{t("autoAssign")}</span>
        </label>
        <p className="text-sm text-slate-600">{t("autoAssignHint")}</p>
        <label className="flex flex-col gap-1 text-sm" htmlFor={`${id}-capacity`}>
          <span className="font-medium text-slate-800">{t("capacity")}</span>
          <input
            id={`${id}-capacity`}
            type="number"
            min={1}
            max={1000}
            className={`${input} w-28`}
            value={draft.capacity}
            onChange={(event) => change({ capacity: Number(event.target.value) })}
          />
        </label>
      </fieldset>

      <section aria-labelledby={`${id}-queues`} className="space-y-3">
        <h2 id={`${id}-queues`} className="text-lg font-semibold text-slate-900">
          {t("queues")}
        </h2>
        {draft.queues.map((queue, index) => (
          <fieldset key={queue.id} className="space-y-2 rounded-md border border-slate-200 bg-white p-4 text-sm">
            <legend className="px-1 font-semibold text-slate-900">{queue.name || t("unnamed")}</legend>
            <label className="flex flex-col gap-1" htmlFor={`${id}-q${index}-name`}>
              <span className="font-medium text-slate-800">{t("queueName")}</span>
              <input
                id={`${id}-q${index}-name`}
                className={`${input} max-w-sm`}
                value={queue.name}
                onChange={(event) => changeQueue(index, { name: event.target.value })}
              />
            </label>
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
                        changeQueue(index, {
                          members: queue.members.map((item, i) => (i === at ? { ...item, lead: event.target.checked } : item)),
                        })
                      }
                    />
                    <span>{t("lead")}</span>
                  </label>
                  <Button
                    variant="secondary"
                    aria-label={t("removeMember", { name: staffName(member.userId) })}
                    onClick={() => changeQueue(index, { members: queue.members.filter((_, i) => i !== at) })}
                  >
                    {t("remove")}
                  </Button>
                </li>
              ))}
            </ul>
            <label className="flex flex-col gap-1" htmlFor={`${id}-q${index}-add`}>
              <span className="font-medium text-slate-800">{t("addMember")}</span>
              <select
                id={`${id}-q${index}-add`}
                className={`${input} max-w-sm`}
                value=""
                onChange={(event) =>
                  event.target.value && changeQueue(index, { members: [...queue.members, { userId: event.target.value, lead: false }] })
                }
              >
                <option value="">{t("chooseMember")}</option>
                {config.staff
                  .filter((staff) => !staff.disabled && !queue.members.some((member) => member.userId === staff.id))
                  .map((staff) => (
                    <option key={staff.id} value={staff.id}>
                      {staff.name ? `${staff.name} (${staff.email})` : staff.email}
                    </option>
                  ))}
              </select>
            </label>
            {queue.id === DEFAULT_QUEUE ? (
              <p className="text-slate-600">{t("defaultQueue")}</p>
            ) : (
              <Button
                variant="secondary"
                onClick={() =>
                  change({
                    queues: draft.queues.filter((_, at) => at !== index),
                    rules: draft.rules.filter((rule) => rule.queueId !== queue.id),
                  })
                }
              >
                {t("retire", { queue: queue.name || t("unnamed") })}
              </Button>
            )}
          </fieldset>
        ))}
        <Button
          variant="secondary"
          onClick={() => change({ queues: [...draft.queues, { id: crypto.randomUUID(), name: "", members: [] }] })}
        >
          {t("addQueue")}
        </Button>
      </section>

      <section aria-labelledby={`${id}-rules`} className="space-y-3">
        <h2 id={`${id}-rules`} className="text-lg font-semibold text-slate-900">
          {t("rules")}
        </h2>
        <p className="text-sm text-slate-600">{t("rulesHint")}</p>
        <ol className="space-y-3">
          {draft.rules.map((rule, index) => {
            const c = rule.conditions;
            const prefix = `${id}-r${index}`;
            const number = (value: string) => (value === "" ? undefined : Number(value));
            return (
              <li key={rule.id ?? `new-${index}`} className="space-y-2 rounded-md border border-slate-200 bg-white p-4 text-sm">
                <fieldset className="space-y-2">
                  <legend className="font-semibold text-slate-900">{t("rule", { n: index + 1, queue: queueName(rule.queueId) })}</legend>
                  <label className="flex flex-col gap-1" htmlFor={`${prefix}-queue`}>
                    <span className="font-medium text-slate-800">{t("sendTo")}</span>
                    <select
                      id={`${prefix}-queue`}
                      className={`${input} max-w-sm`}
                      value={rule.queueId}
                      onChange={(event) => changeRule(index, c, event.target.value)}
                    >
                      {draft.queues.map((queue) => (
                        <option key={queue.id} value={queue.id}>
                          {queue.name || t("unnamed")}
                        </option>
                      ))}
                    </select>
                  </label>
                  <fieldset className="flex flex-wrap gap-3">
                    <legend className="font-medium text-slate-800">{t("flags")}</legend>
                    {RED_FLAGS.map((flag) => (
                      <label key={flag} className="flex items-center gap-1">
                        <input
                          type="checkbox"
                          className="size-4"
                          checked={c.flags?.includes(flag) ?? false}
                          onChange={(event) => {
                            const flags = event.target.checked
                              ? [...(c.flags ?? []), flag]
                              : (c.flags ?? []).filter((item) => item !== flag);
                            changeRule(index, { ...c, flags: flags.length ? flags : undefined });
                          }}
                        />
                        <span>{tFlags(flag)}</span>
                      </label>
                    ))}
                  </fieldset>
                  <div className="flex flex-wrap gap-3">
                    <label className="flex flex-col gap-1" htmlFor={`${prefix}-flows`}>
                      <span className="font-medium text-slate-800">{t("flows")}</span>
                      <input
                        id={`${prefix}-flows`}
                        className={input}
                        defaultValue={c.flows?.join(", ") ?? ""}
                        onBlur={(event) =>
                          changeRule(index, { ...c, flows: list(event.target.value).length ? list(event.target.value) : undefined })
                        }
                      />
                    </label>
                    <label className="flex flex-col gap-1" htmlFor={`${prefix}-journeys`}>
                      <span className="font-medium text-slate-800">{t("journeys")}</span>
                      <input
                        id={`${prefix}-journeys`}
                        className={input}
                        defaultValue={c.journeys?.join(", ") ?? ""}
                        onBlur={(event) =>
                          changeRule(index, { ...c, journeys: list(event.target.value).length ? list(event.target.value) : undefined })
                        }
                      />
                    </label>
                    <label className="flex flex-col gap-1" htmlFor={`${prefix}-risk`}>
                      <span className="font-medium text-slate-800">{t("minRisk")}</span>
                      <input
                        id={`${prefix}-risk`}
                        type="number"
                        min={0}
                        max={100}
                        className={`${input} w-24`}
                        value={c.minRisk ?? ""}
                        onChange={(event) => changeRule(index, { ...c, minRisk: number(event.target.value) })}
                      />
                    </label>
                    <label className="flex flex-col gap-1" htmlFor={`${prefix}-age`}>
                      <span className="font-medium text-slate-800">{t("minAgeHours")}</span>
                      <input
                        id={`${prefix}-age`}
                        type="number"
                        min={0}
                        className={`${input} w-24`}
                        value={c.minAgeHours ?? ""}
                        onChange={(event) => changeRule(index, { ...c, minAgeHours: number(event.target.value) })}
                      />
                    </label>
                  </div>
                </fieldset>
                <div className="flex flex-wrap gap-2">
                  <Button variant="secondary" disabled={index === 0} onClick={() => moveRule(index, -1)}>
                    {t("moveUp", { n: index + 1 })}
                  </Button>
                  <Button variant="secondary" disabled={index === draft.rules.length - 1} onClick={() => moveRule(index, 1)}>
                    {t("moveDown", { n: index + 1 })}
                  </Button>
                  <Button variant="secondary" onClick={() => change({ rules: draft.rules.filter((_, at) => at !== index) })}>
                    {t("removeRule", { n: index + 1 })}
                  </Button>
                </div>
              </li>
            );
          })}
        </ol>
        <Button
          variant="secondary"
          onClick={() => change({ rules: [...draft.rules, { id: crypto.randomUUID(), queueId: DEFAULT_QUEUE, conditions: {} }] })}
        >
          {t("addRule")}
        </Button>
      </section>

      {save.error ? <Alert tone="error" title={save.error.message} /> : null}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-700">
        {saved ? t("saved") : null}
      </p>
      <Button type="submit" pending={save.isPending}>
        {t("save")}
      </Button>
    </form>
  );
}
