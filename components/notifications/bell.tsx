"use client";

import { useTranslations } from "next-intl";
import { useId } from "react";

import { AppLink as Link } from "@/components/ui/app-link";
import { BareButton } from "@/components/ui/button";
import { useDisclosure } from "@/components/ui/use-disclosure";
import { useDateTime } from "@/components/ui/use-formatters";
import { useMarkNotificationsRead, useNotifications } from "@/lib/notifications/hooks";
import {
  ACCOUNT_NOTIFICATION_KINDS,
  caseLabel,
  CONNECTION_NOTIFICATION_KINDS,
  PRIVACY_NOTIFICATION_KINDS,
  type NotificationItem,
} from "@/lib/notifications/types";

import { BELL_BUTTON, BellIcon } from "./bell-icon";

/*
 * The bell in the dashboard header: the unread count (in its accessible name too), and a popover listing the
 * member's latest notifications (what happened to which case, named by its ref_id, and by whom when a member did it;
 * a digest's count of overdue cases still to handle; the time) with mark read and mark all read. A case's notifications are read once the
 * case is handled (server side, lib/notifications/server/handled.ts): the list follows the server.
 * A disclosure, not a modal: the button says whether it is open (aria-expanded), Escape or a click outside
 * closes it and focus goes back to the button. Polls every 30 s in the background (lib/notifications/hooks.ts).
 * A notification of another connection than the page's names it, and opens as a full page load: the shell (header,
 * switcher, caches) is the page's connection's, and only a fresh load takes the other's (issue 33).
 */
export function NotificationBell({ currentConnection }: { currentConnection: string }) {
  const t = useTranslations("notifications");
  const { data, isError } = useNotifications();
  const markRead = useMarkNotificationsRead();
  const { open, setOpen, button, panel } = useDisclosure();
  const panelId = useId();
  const titleId = useId();
  const unread = data?.unread ?? 0;
  const items = data?.items ?? [];

  return (
    <div className="relative">
      <BareButton
        ref={button}
        type="button"
        aria-label={t("bell.label", { count: unread })}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
        className={BELL_BUTTON}
        data-testid="notification-bell"
      >
        <BellIcon />
        {unread > 0 ? (
          <span
            aria-hidden="true"
            className="absolute -top-0.5 -right-0.5 min-w-[1.1rem] rounded-full bg-red-700 px-1 text-center text-[0.7rem] leading-[1.1rem] font-semibold text-white"
          >
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </BareButton>
      <div
        ref={panel}
        id={panelId}
        role="region"
        aria-labelledby={titleId}
        tabIndex={-1}
        hidden={!open}
        className="z-40 rounded-lg border border-slate-200 bg-white shadow-lg focus:outline-none max-sm:fixed max-sm:inset-x-2 max-sm:top-14 sm:absolute sm:top-11 sm:right-0 sm:w-96"
      >
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-3 py-2">
          <h2 id={titleId} className="text-sm font-semibold text-slate-900">
            {t("bell.title")}
          </h2>
          <BareButton
            type="button"
            disabled={unread === 0 || markRead.isPending}
            onClick={() => markRead.mutate({ all: true })}
            className="rounded px-2 py-1 text-sm text-brand-800 underline underline-offset-2 hover:bg-slate-100 disabled:text-slate-500 disabled:no-underline"
          >
            {t("bell.markAllRead")}
          </BareButton>
        </div>
        {isError ? (
          <p role="alert" className="px-3 py-3 text-sm text-red-800">
            {t("bell.loadFailed")}
          </p>
        ) : items.length === 0 ? (
          <p className="px-3 py-3 text-sm text-slate-700">{t("bell.empty")}</p>
        ) : (
          <ul className="max-h-[60vh] divide-y divide-slate-100 overflow-y-auto" data-testid="notification-list">
            {items.map((item) => (
              <NotificationRow
                key={item.id}
                item={item}
                elsewhere={item.connection !== null && item.connection.id !== currentConnection}
                busy={markRead.isPending}
                onRead={() => markRead.mutate({ ids: [item.id] })}
                onOpen={() => setOpen(false)}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

const LINK = "font-medium break-words text-brand-800 underline underline-offset-2";

/** One notification: what happened, as a link to where it is handled; its time; mark read while unread. */
function NotificationRow({
  item,
  elsewhere,
  busy,
  onRead,
  onOpen,
}: {
  item: NotificationItem;
  elsewhere: boolean;
  busy: boolean;
  onRead: () => void;
  onOpen: () => void;
}) {
  const t = useTranslations("notifications");
  const dateTime = useDateTime();
  // Who acted, for the kinds that name them (a confirmation, an escalation); "Someone" when the member is gone.
  const connection = item.connection?.name ?? "";
  const what = t(`kinds.${item.kind}`, {
    case: caseLabel(item),
    count: item.cases ?? 0,
    actor: item.actorName ?? t("bell.someone"),
    connection,
  });
  const detail =
    item.kind === "overdue_digest"
      ? t("bell.digest")
      : ACCOUNT_NOTIFICATION_KINDS.has(item.kind)
        ? t("bell.account")
        : CONNECTION_NOTIFICATION_KINDS.has(item.kind)
          ? t("bell.connectionKey", { connection })
          : PRIVACY_NOTIFICATION_KINDS.has(item.kind)
            ? t("bell.privacyRequest")
            : t("bell.case", { id: item.casePublicId });
  return (
    <li
      className={`flex items-start gap-2 px-3 py-2 ${item.read ? "" : "bg-brand-50"}`}
      data-testid="notification-item"
      data-read={item.read}
    >
      <div className="min-w-0 flex-1 text-sm">
        {elsewhere ? (
          // A full load: another connection's page needs its own shell (this one's header names this connection).
          <a href={item.href} onClick={() => (item.read ? undefined : onRead())} className={LINK}>
            {what}
          </a>
        ) : (
          <Link
            href={item.href}
            onClick={() => {
              if (!item.read) onRead();
              onOpen();
            }}
            className={LINK}
          >
            {what}
          </Link>
        )}
        <span className="block font-mono text-xs break-all text-slate-700">{detail}</span>
        {elsewhere && item.connection ? (
          <span className="block text-xs text-slate-700">{t("bell.inConnection", { name: item.connection.name })}</span>
        ) : null}
        <span className="block text-xs text-slate-600">
          <time dateTime={item.createdAt}>{dateTime(item.createdAt)}</time>
          {item.read ? null : <span> · {t("bell.unread")}</span>}
        </span>
      </div>
      {item.read ? null : (
        <BareButton
          type="button"
          aria-label={t("bell.markReadOf", { what })}
          disabled={busy}
          onClick={onRead}
          className="shrink-0 rounded px-2 py-1 text-xs text-brand-800 underline underline-offset-2 hover:bg-slate-100"
        >
          {t("bell.markRead")}
        </BareButton>
      )}
    </li>
  );
}
