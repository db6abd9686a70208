"use client";

import { useState } from "react";

import { useRefreshingRequest } from "@/components/ui/use-refreshing-request";
import { saveRouting } from "@/lib/cases/routing-requests";
import { DEFAULT_QUEUE, type RoutingConditions } from "@/lib/cases/routing-rules";
import type { RoutingConfigInput } from "@/lib/cases/routing-validation";
import type { RoutingConfig } from "@/lib/cases/types";

// The form's state: conditions as the stored shape (flags are only ever ticked from RED_FLAGS); the server's
// schema checks them again on save.
export type RoutingDraft = Omit<RoutingConfigInput, "rules"> & {
  rules: Array<{ id?: string; queueId: string; conditions: RoutingConditions }>;
};
export type DraftQueue = RoutingDraft["queues"][number];

function draftOf(config: RoutingConfig): RoutingDraft {
  return {
    autoAssign: config.autoAssign,
    capacity: config.capacity,
    queues: config.queues.map((queue) => ({ id: queue.id, name: queue.name, members: queue.members })),
    rules: config.rules.map((rule) => ({ id: rule.id, queueId: rule.queueId, conditions: rule.conditions })),
  };
}

/** The routing editor's draft and its edits; `submit` saves it and takes the server's answer as the new draft. */
export function useRoutingDraft(config: RoutingConfig) {
  const save = useRefreshingRequest(saveRouting);
  const [draft, setDraft] = useState<RoutingDraft>(() => draftOf(config));
  const [saved, setSaved] = useState(false);

  function change(next: Partial<RoutingDraft>) {
    setSaved(false);
    setDraft((current) => ({ ...current, ...next }));
  }
  function changeQueue(index: number, next: Partial<DraftQueue>) {
    change({ queues: draft.queues.map((queue, at) => (at === index ? { ...queue, ...next } : queue)) });
  }
  function retireQueue(index: number) {
    const queue = draft.queues[index];
    change({
      queues: draft.queues.filter((_, at) => at !== index),
      rules: draft.rules.filter((rule) => rule.queueId !== queue?.id),
    });
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
  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    save.mutate(draft as RoutingConfigInput, {
      onSuccess: (data) => {
        setDraft(draftOf(data));
        setSaved(true);
      },
    });
  }

  return {
    draft,
    saved,
    save,
    submit,
    change,
    changeQueue,
    retireQueue,
    addQueue: () => change({ queues: [...draft.queues, { id: crypto.randomUUID(), name: "", members: [] }] }),
    changeRule,
    moveRule,
    removeRule: (index: number) => change({ rules: draft.rules.filter((_, at) => at !== index) }),
    addRule: () => change({ rules: [...draft.rules, { id: crypto.randomUUID(), queueId: DEFAULT_QUEUE, conditions: {} }] }),
  };
}
