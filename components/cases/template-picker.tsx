"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

import type { ReasonCode, Recommendation } from "@/lib/cases/rules";
import { useTemplatesOf } from "@/lib/cases/template-hooks";
import { matchTemplates, reasonsNotForKind, resolveTemplate, type CaseTemplate, type TemplatePlaceholder } from "@/lib/cases/templates";
import { applyEarlyKeys } from "@/lib/shared/early-keys";

import { byId } from "./case-panel-focus";
import { useTemplateFacts } from "./template-facts";
import { TemplateTools } from "./template-tools";
import { isTyping } from "./typing";

const TEMPLATE_SEARCH_ID = "case-template-search";
const EARLY_TEMPLATE_KEY = /^t$/;

/**
 * `t` on the case page (outside a field) goes to the template box, where a number applies that template and letters
 * find one by the start of its name. The number keys alone keep ticking reasons (./use-case-shortcuts.ts): this
 * listens in the capture phase, before them, and only for `t`.
 */
function useTemplateKey() {
  useEffect(() => {
    function onKey(event: globalThis.KeyboardEvent) {
      if (event.key !== "t" || event.defaultPrevented || event.altKey || event.metaKey || event.ctrlKey) return;
      if (document.querySelector("[role=dialog]")) return;
      const target = event.target as HTMLElement | null;
      if (isTyping(target) && target?.getAttribute("type") !== "checkbox" && target?.getAttribute("type") !== "radio") return;
      const box = byId(TEMPLATE_SEARCH_ID);
      if (!box) return;
      event.preventDefault();
      box.focus();
    }
    window.addEventListener("keydown", onKey, true);
    // A `t` pressed before this listener was there (lib/shared/early-keys.ts): the box takes the focus now.
    const stopEarly = applyEarlyKeys(EARLY_TEMPLATE_KEY, () => {
      if (!document.querySelector("[role=dialog]")) byId(TEMPLATE_SEARCH_ID)?.focus();
    });
    return () => {
      stopEarly();
      window.removeEventListener("keydown", onKey, true);
    };
  }, []);
}

interface TemplateTarget {
  publicId: string;
  kind: Recommendation;
  reasons: string[];
  comment: string;
  setReasons: (reasons: ReasonCode[]) => void;
  setComment: (comment: string) => void;
}

/**
 * The decision form's templates of the chosen kind, numbered: `t` then a number, or the start of a name and Enter,
 * or a click applies one (its reasons ticked, its comment written with the case's facts in place of its
 * placeholders); the analyst still edits both before recording. Saving and managing templates sit beside it.
 */
export function TemplatePicker(target: TemplateTarget) {
  const t = useTranslations("cases.templates");
  const { templates, isPending } = useTemplatesOf(target.kind);
  const factsNow = useTemplateFacts(target.publicId);
  const [typed, setTyped] = useState("");
  const [active, setActive] = useState(0);
  const [applied, setApplied] = useState<{ name: string; missing: TemplatePlaceholder[] } | null>(null);
  const listId = useId();
  const input = useRef<HTMLInputElement>(null);
  useTemplateKey();
  const matches = matchTemplates(templates, /^[1-9]$/.test(typed) ? "" : typed);

  function apply(template: CaseTemplate) {
    const { text, missing } = resolveTemplate(template.comment, factsNow());
    const bad = reasonsNotForKind(target.kind, template.reasons);
    target.setReasons(template.reasons.filter((reason) => !bad.includes(reason)));
    target.setComment(text);
    setApplied({ name: template.name, missing });
    setTyped("");
    // The comment next, to read and edit: Ctrl+Enter records from there.
    requestAnimationFrame(() => {
      const comment = byId("case-outcome-comment") as HTMLTextAreaElement | null;
      comment?.focus();
      comment?.setSelectionRange(comment.value.length, comment.value.length);
    });
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (/^[1-9]$/.test(event.key) && typed === "") {
      event.preventDefault();
      const chosen = templates[Number(event.key) - 1];
      if (chosen) apply(chosen);
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setActive((index) => (matches.length === 0 ? 0 : (index + (event.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length));
    } else if (event.key === "Enter" && !event.ctrlKey) {
      // Enter chooses; it never sends the decision form from here.
      event.preventDefault();
      const chosen = matches[Math.min(active, matches.length - 1)];
      if (chosen) apply(chosen);
    }
  }

  const activeTemplate = matches[Math.min(active, matches.length - 1)];
  return (
    <div className="space-y-1" data-testid="case-templates">
      <div className="flex flex-wrap items-center justify-between gap-x-3">
        <label htmlFor={TEMPLATE_SEARCH_ID} className="text-sm font-medium text-slate-800">
          {t("label")} <kbd className="rounded border border-slate-300 px-1 font-mono text-xs text-slate-600">t</kbd>
        </label>
        <TemplateTools kind={target.kind} reasons={target.reasons} comment={target.comment} />
      </div>
      <input
        id={TEMPLATE_SEARCH_ID}
        ref={input}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-expanded={matches.length > 0}
        aria-controls={listId}
        aria-activedescendant={activeTemplate ? `${listId}-${activeTemplate.id}` : undefined}
        aria-describedby={`${listId}-hint`}
        value={typed}
        onChange={(event) => {
          setTyped(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        className="block w-full rounded-md border border-slate-300 px-2 py-0.5 text-sm"
      />
      <p id={`${listId}-hint`} className={templates.length === 0 ? "text-xs text-slate-600" : "sr-only"}>
        {isPending ? t("loading") : templates.length === 0 ? t("none") : t("hint")}
      </p>
      {matches.length > 0 ? (
        <ul id={listId} role="listbox" aria-label={t("list")} className="flex max-h-16 flex-wrap gap-1 overflow-y-auto">
          {matches.map((template) => {
            const number = templates.indexOf(template) + 1;
            return (
              <li
                key={template.id}
                id={`${listId}-${template.id}`}
                role="option"
                aria-selected={template === activeTemplate}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => apply(template)}
                className={`inline-flex max-w-full cursor-pointer items-center gap-1 rounded border px-1 text-xs ${
                  template === activeTemplate && typed !== "" ? "border-brand-600 bg-brand-50" : "border-slate-200"
                }`}
              >
                {number <= 9 ? (
                  <kbd aria-hidden="true" className="rounded border border-slate-300 px-1 font-mono text-slate-600">
                    {number}
                  </kbd>
                ) : null}
                <span className="min-w-0 truncate text-slate-900">{template.name}</span>
                <span className="text-slate-600">{t(`scope.${template.scope}`)}</span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {applied ? (
        <p role="status" className="text-xs text-slate-700">
          {t("applied", { name: applied.name })}
          {applied.missing.length > 0 ? ` ${t("missing", { placeholders: applied.missing.map((name) => `{${name}}`).join(", ") })}` : null}
        </p>
      ) : null}
    </div>
  );
}
