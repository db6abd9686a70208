import "server-only";

import { ACCOUNT_NOTIFICATION_KINDS, notificationPath, type NotificationKind } from "@/lib/notifications/types";

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
  factor_added: { "pt-BR": "Um segundo fator foi adicionado à sua conta", en: "A second factor was added to your account" },
  factor_removed: { "pt-BR": "Um segundo fator foi removido da sua conta", en: "A second factor was removed from your account" },
};

export function kindInWords(kind: NotificationKind, locale: "pt-BR" | "en" = "en"): string {
  return WORDS[kind][locale];
}

/** The page it opens (the case's, or the account's): absolute when a base (public URL or the request's origin) is known. */
export function notificationLink(kind: NotificationKind, casePublicId: string, base: string | undefined): string {
  const path = notificationPath(kind, casePublicId);
  return base ? new URL(path, base).toString() : path;
}

export interface OutgoingMessage {
  subject: string;
  body: string;
}

export function messageFor(kind: NotificationKind, casePublicId: string, base: string | undefined): OutgoingMessage {
  const link = notificationLink(kind, casePublicId, base);
  if (ACCOUNT_NOTIFICATION_KINDS.has(kind)) {
    // Not the member's doing? The message says where to look; it names no factor and no secret.
    return {
      subject: `${kindInWords(kind, "pt-BR")} / ${kindInWords(kind)}`,
      body: [
        `${kindInWords(kind, "pt-BR")}. Se não foi você, avise um administrador.`,
        `${kindInWords(kind)}. If it was not you, tell an administrator.`,
        link,
      ].join("\n"),
    };
  }
  return {
    subject: `${kindInWords(kind, "pt-BR")} / ${kindInWords(kind)}: ${casePublicId}`,
    body: [`${kindInWords(kind, "pt-BR")}: caso ${casePublicId}`, `${kindInWords(kind)}: case ${casePublicId}`, link].join("\n"),
  };
}
