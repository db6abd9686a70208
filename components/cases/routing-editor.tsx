"use client";

import { useTranslations } from "next-intl";
import { useId, type ReactNode } from "react";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import type { RoutingConfig } from "@/lib/cases/types";

import { routingInput, RoutingLabel, RoutingQueueFieldset } from "./routing-queue-fieldset";
import { RoutingRuleItem } from "./routing-rule-item";
import { useRoutingDraft } from "./use-routing-draft";

/** Automatic assignment and its capacity, the queues and their members, and the rules that send a case to a queue, in order. */
export function RoutingEditor({ config }: { config: RoutingConfig }) {
  const t = useTranslations("cases.routing");
  const id = useId();
  const editor = useRoutingDraft(config);
  const { draft, save } = editor;
  const staffName = (userId: string) => {
    const member = config.staff.find((staff) => staff.id === userId);
    return member
      ? `${member.name || member.email}${member.away ? ` · ${t("away")}` : ""}${member.disabled ? ` · ${t("disabled")}` : ""}`
      : userId;
  };
  const queueName = (queueId: string) => draft.queues.find((queue) => queue.id === queueId)?.name || t("unnamed");

  return (
    <form className="space-y-6" onSubmit={editor.submit}>
      <div>
        <h1 className="text-xl font-semibold text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-600">{t("intro")}</p>
      </div>

      <fieldset className="min-w-0 space-y-2 rounded-md border border-slate-200 bg-white p-4">
        <legend className="px-1 font-semibold text-slate-900">{t("assignment")}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4"
            checked={draft.autoAssign}
            onChange={(event) => editor.change({ autoAssign: event.target.checked })}
          />
          <span>{t("autoAssign")}</span>
        </label>
        <p className="text-sm text-slate-600">{t("autoAssignHint")}</p>
        <RoutingLabel htmlFor={`${id}-capacity`} label={t("capacity")} className="flex flex-col gap-1 text-sm">
          <input
            id={`${id}-capacity`}
            type="number"
            min={1}
            max={1000}
            className={`${routingInput} w-28`}
            value={draft.capacity}
            onChange={(event) => editor.change({ capacity: Number(event.target.value) })}
          />
        </RoutingLabel>
      </fieldset>

      <EditorSection id={`${id}-queues`} title={t("queues")}>
        {draft.queues.map((queue, index) => (
          <RoutingQueueFieldset
            key={queue.id}
            id={`${id}-q${index}`}
            queue={queue}
            staff={config.staff}
            staffName={staffName}
            onChange={(next) => editor.changeQueue(index, next)}
            onRetire={() => editor.retireQueue(index)}
          />
        ))}
        <Button variant="secondary" onClick={editor.addQueue}>
          {t("addQueue")}
        </Button>
      </EditorSection>

      <EditorSection id={`${id}-rules`} title={t("rules")}>
        <p className="text-sm text-slate-600">{t("rulesHint")}</p>
        <ol className="space-y-3">
          {draft.rules.map((rule, index) => (
            <RoutingRuleItem
              key={rule.id ?? `new-${index}`}
              id={`${id}-r${index}`}
              rule={rule}
              index={index}
              count={draft.rules.length}
              queues={draft.queues}
              queueName={queueName}
              onChange={(conditions, queueId) => editor.changeRule(index, conditions, queueId)}
              onMove={(by) => editor.moveRule(index, by)}
              onRemove={() => editor.removeRule(index)}
            />
          ))}
        </ol>
        <Button variant="secondary" onClick={editor.addRule}>
          {t("addRule")}
        </Button>
      </EditorSection>

      {save.error ? <Alert tone="error" title={save.error.message} /> : null}
      <p role="status" aria-live="polite" className="min-h-5 text-sm text-slate-700">
        {editor.saved ? t("saved") : null}
      </p>
      <Button type="submit" pending={save.isPending}>
        {t("save")}
      </Button>
    </form>
  );
}

/** One part of the editor (the queues, the rules): a region named by its heading. */
function EditorSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}
