import { describe, expect, it } from "vitest";

import en from "@/messages/en/audit.json";
import ptBR from "@/messages/pt-BR/audit.json";

import { AUDIT_ACTION_NAMES } from "./action-names";

// The audit page shows each action in words (components/audit-trail/audit-event-table.tsx reads `actions.<name>`):
// every action the code records (AUDIT_ACTION_NAMES, itself checked against the source) has a label in both languages.
function label(catalogue: unknown, action: string): unknown {
  return action
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], (catalogue as { actions: unknown }).actions);
}

describe("audit action labels", () => {
  it.each([
    ["en", en],
    ["pt-BR", ptBR],
  ])("every recorded action has a label in %s", (_locale, catalogue) => {
    const missing = AUDIT_ACTION_NAMES.filter((action) => typeof label(catalogue, action) !== "string");
    expect(missing).toEqual([]);
  });
});
