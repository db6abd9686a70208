/*
 * A connection's flows: the service's flows an admin names with the connection, because every creation example of the
 * provider sends `flow_public_id` and no operation lists an integration's flows (docs/assumptions.md#creation-flow).
 * Ordered: the first is the default the creation dialog offers. Shared by the form, the route and the store; free of zod, since the form's bundle carries it (the rules that judge a list
 * are lib/connections/validation.ts's, on the server).
 */

export interface ConnectionFlow {
  id: string;
  label: string;
}

export const MAX_FLOWS = 20;

/**
 * The form's text, one flow a line: its id, then (after a space) its label; a line with an id alone is labelled by
 * its id. Blank lines are skipped; the server judges the rest (lib/connections/validation.ts).
 */
export function flowsOfText(text: string): ConnectionFlow[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const space = line.search(/\s/);
      return space < 0 ? { id: line, label: line } : { id: line.slice(0, space), label: line.slice(space).trim() };
    });
}

export function textOfFlows(flows: readonly ConnectionFlow[]): string {
  return flows.map((item) => (item.label === item.id ? item.id : `${item.id} ${item.label}`)).join("\n");
}

type FlowChoice = { ok: true; flowPublicId: string | undefined } | { ok: false; message: string };

/**
 * The flow a new verification opens: the one asked for, which must be one of the connection's when it names any;
 * else the connection's default (its first); else none, and the integration's own default applies.
 */
export function chooseFlow(asked: string | undefined, flows: readonly ConnectionFlow[]): FlowChoice {
  if (flows.length === 0) return { ok: true, flowPublicId: asked };
  if (asked === undefined) return { ok: true, flowPublicId: flows[0]!.id };
  if (flows.some((item) => item.id === asked)) return { ok: true, flowPublicId: asked };
  return { ok: false, message: `must be one of this connection's flows (${flows.map((item) => item.id).join(", ")})` };
}
