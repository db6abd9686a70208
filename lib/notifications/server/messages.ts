import "server-only";

import {
  ACCOUNT_NOTIFICATION_KINDS,
  caseLabel,
  CONNECTION_NOTIFICATION_KINDS,
  notificationPath,
  PRIVACY_NOTIFICATION_KINDS,
  type NotificationKind,
} from "@/lib/notifications/types";

/*
 * The text of a notification sent out (email, chat): the case named by its ref_id (the caller's own reference;
 * the short public id when the dashboard does not know it), what happened, and a link. Never a CPF, a person's
 * name, a member's name or a note's text: only what is passed here, which is none of those.
 * Both languages, Portuguese first (the teams are Brazilian; a message has no reader's locale to follow).
 */

const WORDS: Record<NotificationKind, { "pt-BR": string; en: string }> = {
  case_overdue: { "pt-BR": "passou do prazo", en: "overdue" },
  overdue_digest: { "pt-BR": "casos passaram do prazo na sua fila", en: "cases overdue in your queue" },
  confirmation_waiting: { "pt-BR": "recomendação a confirmar", en: "recommendation to confirm" },
  mention: { "pt-BR": "você foi mencionado em uma nota", en: "you were mentioned in a note" },
  case_assigned: { "pt-BR": "atribuído a você", en: "assigned to you" },
  outcome_confirmed: { "pt-BR": "sua recomendação foi confirmada", en: "your recommendation was confirmed" },
  outcome_rejected: { "pt-BR": "sua recomendação foi rejeitada", en: "your recommendation was overruled" },
  case_escalated: { "pt-BR": "escalado para a sua fila", en: "escalated to your queue" },
  factor_added: { "pt-BR": "Um segundo fator foi adicionado à sua conta", en: "A second factor was added to your account" },
  factor_removed: { "pt-BR": "Um segundo fator foi removido da sua conta", en: "A second factor was removed from your account" },
  key_expiring: {
    "pt-BR": "A chave de API de uma conexão vence em breve (ou venceu): substitua-a na página de conexões",
    en: "A connection's API key expires soon (or has expired): replace it on the connections page",
  },
  monitoring_alert_assigned: { "pt-BR": "alerta de monitoramento atribuído a você", en: "monitoring alert assigned to you" },
  monitoring_alert_waiting: { "pt-BR": "novo alerta de monitoramento na sua fila", en: "new monitoring alert in your queue" },
  privacy_request_late: {
    "pt-BR": "Uma requisição de titular passou do prazo: responda-a na página de privacidade",
    en: "A titular's request is past its due date: answer it on the privacy page",
  },
};

export function kindInWords(kind: NotificationKind, locale: "pt-BR" | "en" = "en"): string {
  return WORDS[kind][locale];
}

/** What a message is about: a case (its public id and ref_id), a digest (its count and page), or the account. */
export interface MessageSubject {
  casePublicId: string;
  caseRef?: string | null;
  /** A digest: how many cases it covers. */
  count?: number;
  /** A page of its own (a digest's filtered queue). */
  link?: string | null;
  /** The connection of the case (or digest) told of: the link opens under it. */
  connectionId?: string | null;
}

/** The page it opens: absolute when a base (public URL or the request's origin) is known. */
export function notificationLink(kind: NotificationKind, subject: MessageSubject, base: string | undefined): string {
  const path = notificationPath(kind, subject);
  return base ? new URL(path, base).toString() : path;
}

export interface OutgoingMessage {
  subject: string;
  body: string;
}

/** The headline in one language: "Caso REF-123: atribuído a você", "12 cases overdue in your queue". */
function headline(kind: NotificationKind, subject: MessageSubject, locale: "pt-BR" | "en"): string {
  if (ACCOUNT_NOTIFICATION_KINDS.has(kind) || CONNECTION_NOTIFICATION_KINDS.has(kind) || PRIVACY_NOTIFICATION_KINDS.has(kind)) {
    return kindInWords(kind, locale);
  }
  if (kind === "overdue_digest") return `${subject.count ?? 0} ${kindInWords(kind, locale)}`;
  const label = caseLabel({ caseRef: subject.caseRef ?? null, casePublicId: subject.casePublicId });
  return `${locale === "en" ? "Case" : "Caso"} ${label}: ${kindInWords(kind, locale)}`;
}

export function messageFor(kind: NotificationKind, subject: MessageSubject, base: string | undefined): OutgoingMessage {
  const link = notificationLink(kind, subject, base);
  const [pt, en] = [headline(kind, subject, "pt-BR"), headline(kind, subject, "en")];
  if (ACCOUNT_NOTIFICATION_KINDS.has(kind)) {
    // Not the member's doing? The message says where to look; it names no factor and no secret.
    return {
      subject: `${pt} / ${en}`,
      body: [`${pt}. Se não foi você, avise um administrador.`, `${en}. If it was not you, tell an administrator.`, link].join("\n"),
    };
  }
  return { subject: `${pt} / ${en}`, body: [pt, en, link].join("\n") };
}
