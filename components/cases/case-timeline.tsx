"use client";

import { useTranslations } from "next-intl";

import { useDateTime } from "@/components/ui/use-formatters";
import { useCase } from "@/lib/cases/hooks";
import { caseHref } from "@/lib/cases/queue-context";
import type { CaseDetail } from "@/lib/cases/types";

import { ReasonList } from "./reason-list";

interface Item {
  key: string;
  at: string;
  title: string;
  who: string | null;
  /** Plain text (a note, a comment): rendered as text, never as markup. */
  text: string | null;
  /** Said in place of a text that is not there: erased, removed by retention, or sealed under a key now gone. */
  placeholder?: string | null;
  /** An outcome's reason codes. */
  reasons?: string[] | null;
  /** A verification this entry names (a re-verification's), linked. */
  link?: { href: string; label: string } | null;
}

/** Upstream events and case history in one list, oldest first. */
export function CaseTimeline({ detail }: { detail: CaseDetail }) {
  const t = useTranslations("cases.timeline");
  const tr = useTranslations("cases.recommendation");
  const dateTime = useDateTime();
  const items: Item[] = [
    ...detail.upstreamEvents.map((event, index) => ({
      key: `u${index}`,
      at: event.at,
      title: `${t("upstream", { event: event.event })}${event.status ? ` · ${t("upstreamStatus", { status: event.status })}` : ""}`,
      who: null,
      text: null,
    })),
    ...detail.entries.map((entry) => {
      const details = entry.details as {
        assigneeEmail?: string | null;
        recommendation?: string;
        reasons?: string[];
        agree?: boolean;
        status?: string;
        reason?: string;
        publicId?: string;
        text_removed?: string;
      };
      const assignee = details.assigneeEmail ?? "";
      const title =
        entry.kind === "assigned"
          ? t("kinds.assigned", { assignee })
          : entry.kind === "outcome"
            ? t("kinds.outcome", { recommendation: details.recommendation ? tr(details.recommendation) : "" })
            : entry.kind === "confirmation"
              ? t("kinds.confirmation", { agree: String(details.agree === true) })
              : entry.kind === "closed"
                ? details.reason === "expired"
                  ? t("kinds.closedExpired")
                  : t("kinds.closed", { status: details.status ?? "" })
                : entry.kind === "escalated" && details.reason === "overdue"
                  ? t("kinds.overdue")
                  : t(`kinds.${entry.kind}`);
      const reasons = entry.kind === "outcome" && details.reasons?.length ? details.reasons : null;
      const link =
        entry.kind === "reverification_requested" && details.publicId
          ? { href: caseHref(details.publicId, ""), label: t("openVerification", { publicId: details.publicId }) }
          : null;
      return {
        key: `e${entry.id}`,
        at: entry.at,
        title,
        who: entry.actor?.email ?? t("system"),
        text: entry.text,
        placeholder: entry.redacted
          ? t("redacted", {
              name: entry.redacted.by?.name || entry.redacted.by?.email || t("system"),
              date: dateTime(entry.redacted.at) ?? "",
            })
          : entry.unreadable
            ? t(entry.unreadable.unsealed ? "unsealed" : entry.unreadable.retired ? "sealedRetired" : "sealedDamaged", {
                keyId: entry.unreadable.keyId,
              })
            : details.text_removed === "retention" && entry.text === null
              ? t("retentionRemoved")
              : null,
        reasons,
        link,
      };
    }),
  ].sort((a, b) => a.at.localeCompare(b.at));

  return (
    <section aria-labelledby="case-timeline-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="case-timeline-title" className="text-base font-semibold text-slate-900">
        {t("title")}
      </h2>
      {detail.erasedAt ? (
        <p className="mt-2 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700" data-testid="case-erased">
          {t("erased", { date: dateTime(detail.erasedAt) ?? "" })}
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t("empty")}</p>
      ) : (
        <ol className="mt-3 space-y-3 border-l border-slate-200 pl-4" data-testid="case-timeline">
          {items.map((item) => (
            <li key={item.key} className="text-sm">
              <p className="font-medium text-slate-900">{item.title}</p>
              <p className="text-xs text-slate-600">
                <time dateTime={item.at}>{dateTime(item.at)}</time>
                {item.who ? ` · ${item.who}` : null}
              </p>
              {item.reasons ? <ReasonList codes={item.reasons} /> : null}
              {item.link ? (
                <a href={item.link.href} className="text-brand-800 underline underline-offset-2">
                  {item.link.label}
                </a>
              ) : null}
              {item.text ? <p className="mt-1 whitespace-pre-wrap text-slate-800">{item.text}</p> : null}
              {item.placeholder ? (
                <p className="mt-1 text-slate-600 italic" data-testid="case-text-placeholder">
                  {item.placeholder}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The case's timeline (below the evidence on the case page), from the case the page's panel reads. */
export function CaseHistory({ publicId, context = "" }: { publicId: string; context?: string }) {
  const detail = useCase(publicId, context).data?.case;
  return detail ? <CaseTimeline detail={detail} /> : null;
}
