import "server-only";

import type { NotificationKind } from "../types";

/*
 * The text of a notification sent out (email, chat): the kind in words, the case's public id and a link to
 * it. Never a CPF, a person's name or a note's text: only what is passed here, which is none of those.
 * Both languages, Portuguese first (the teams are Brazilian; a message has no reader's locale to follow).
 */

const WORDS: Record<NotificationKind, { "pt-BR": string; en: string }> = {
  case_overdue: { "pt-BR": "Caso passou do prazo", en: "Case overdue" },
  confirmation_waiting: { "pt-BR": "Decisão aguarda sua confirmação", en: "Outcome waiting for your confirmation" },
  mention: { "pt-BR": "Você foi mencionado em uma nota", en: "You were mentioned in a note" },
  case_assigned: { "pt-BR": "Caso atribuído a você", en: "Case assigned to you" },
};

export function kindInWords(kind: NotificationKind, locale: "pt-BR" | "en" = "en"): string {
  return WORDS[kind][locale];
}

/** The case's address in the dashboard: absolute when a base (public URL or the request's origin) is known. */
export function caseLink(casePublicId: string, base: string | undefined): string {
  const path = `/verifications/${encodeURIComponent(casePublicId)}`;
  return base ? new URL(path, base).toString() : path;
}

export interface OutgoingMessage {
  subject: string;
  body: string;
}

export function messageFor(kind: NotificationKind, casePublicId: string, base: string | undefined): OutgoingMessage {
  const link = caseLink(casePublicId, base);
  return {
    subject: `${kindInWords(kind, "pt-BR")} / ${kindInWords(kind)}: ${casePublicId}`,
    body: [`${kindInWords(kind, "pt-BR")}: caso ${casePublicId}`, `${kindInWords(kind)}: case ${casePublicId}`, link].join("\n"),
  };
}
