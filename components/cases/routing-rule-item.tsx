"use client";

import { useTranslations } from "next-intl";

import { Button } from "@/components/ui/button";
import type { RoutingConditions } from "@/lib/cases/routing-rules";
import { RED_FLAGS } from "@/lib/cases/rules";

import { routingInput, RoutingLabel } from "./routing-queue-fieldset";
import type { DraftQueue, RoutingDraft } from "./use-routing-draft";

const list = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

const number = (value: string) => (value === "" ? undefined : Number(value));

/** A condition typed as a list with commas (flows, journeys); an empty list leaves it out. */
function ListCondition({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string[] | undefined;
  onChange: (items: string[] | undefined) => void;
}) {
  return (
    <RoutingLabel htmlFor={id} label={label}>
      <input
        id={id}
        className={routingInput}
        defaultValue={value?.join(", ") ?? ""}
        onBlur={(event) => {
          const items = list(event.target.value);
          onChange(items.length ? items : undefined);
        }}
      />
    </RoutingLabel>
  );
}

/**
 * One routing rule: the queue it sends to and its conditions (flags, flows, journeys, a minimum risk and age),
 * with its place in the order. `index` is its place (0 first) and `count` how many rules there are.
 */
export function RoutingRuleItem({
  id,
  rule,
  index,
  count,
  queues,
  queueName,
  onChange,
  onMove,
  onRemove,
}: {
  /** The prefix of the fields' ids. */
  id: string;
  rule: RoutingDraft["rules"][number];
  index: number;
  count: number;
  queues: DraftQueue[];
  queueName: (queueId: string) => string;
  onChange: (conditions: RoutingConditions, queueId?: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const t = useTranslations("cases.routing");
  const tFlags = useTranslations("cases.flags");
  const c = rule.conditions;
  return (
    <li className="space-y-2 rounded-md border border-slate-200 bg-white p-4 text-sm">
      <fieldset className="min-w-0 space-y-2">
        <legend className="font-semibold text-slate-900">{t("rule", { n: index + 1, queue: queueName(rule.queueId) })}</legend>
        <RoutingLabel htmlFor={`${id}-queue`} label={t("sendTo")}>
          <select
            id={`${id}-queue`}
            className={`${routingInput} w-full max-w-sm`}
            value={rule.queueId}
            onChange={(event) => onChange(c, event.target.value)}
          >
            {queues.map((queue) => (
              <option key={queue.id} value={queue.id}>
                {queue.name || t("unnamed")}
              </option>
            ))}
          </select>
        </RoutingLabel>
        <fieldset className="flex min-w-0 flex-wrap gap-3">
          <legend className="font-medium text-slate-800">{t("flags")}</legend>
          {RED_FLAGS.map((flag) => (
            <label key={flag} className="flex items-center gap-1">
              <input
                type="checkbox"
                className="size-4"
                checked={c.flags?.includes(flag) ?? false}
                onChange={(event) => {
                  const flags = event.target.checked ? [...(c.flags ?? []), flag] : (c.flags ?? []).filter((item) => item !== flag);
                  onChange({ ...c, flags: flags.length ? flags : undefined });
                }}
              />
              <span>{tFlags(flag)}</span>
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap gap-3">
          <ListCondition id={`${id}-flows`} label={t("flows")} value={c.flows} onChange={(flows) => onChange({ ...c, flows })} />
          <ListCondition
            id={`${id}-journeys`}
            label={t("journeys")}
            value={c.journeys}
            onChange={(journeys) => onChange({ ...c, journeys })}
          />
          <RoutingLabel htmlFor={`${id}-risk`} label={t("minRisk")}>
            <input
              id={`${id}-risk`}
              type="number"
              min={0}
              max={100}
              className={`${routingInput} w-24`}
              value={c.minRisk ?? ""}
              onChange={(event) => onChange({ ...c, minRisk: number(event.target.value) })}
            />
          </RoutingLabel>
          <RoutingLabel htmlFor={`${id}-age`} label={t("minAgeHours")}>
            <input
              id={`${id}-age`}
              type="number"
              min={0}
              className={`${routingInput} w-24`}
              value={c.minAgeHours ?? ""}
              onChange={(event) => onChange({ ...c, minAgeHours: number(event.target.value) })}
            />
          </RoutingLabel>
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={index === 0} onClick={() => onMove(-1)}>
          {t("moveUp", { n: index + 1 })}
        </Button>
        <Button variant="secondary" disabled={index === count - 1} onClick={() => onMove(1)}>
          {t("moveDown", { n: index + 1 })}
        </Button>
        <Button variant="secondary" onClick={onRemove}>
          {t("removeRule", { n: index + 1 })}
        </Button>
      </div>
    </li>
  );
}
