import { screen, waitFor, within } from "@testing-library/react";
import { NextIntlClientProvider } from "next-intl";
import { describe, expect, it } from "vitest";

import { loadMessages } from "@/lib/i18n/messages";
import type { NotificationItem } from "@/lib/notifications/types";
import { mockApi, renderWithProviders, TIME_ZONE } from "@/test/render";

import { NotificationBell } from "./bell";

/*
 * What the bell says of what others did to the member's work: the case named by its ref_id, what happened, and
 * who did it (a removed member: "Someone"), in both languages, each a link to the case.
 */

const item = (patch: Partial<NotificationItem>): NotificationItem => ({
  id: 1,
  kind: "outcome_confirmed",
  casePublicId: "7d1e5b3a-0c2f-4a9e-8b61-3f4c5d6e7a80",
  caseRef: "REF-2024-117",
  actorName: "Renata Quintela",
  cases: null,
  href: "/c/primary/verifications/7d1e5b3a-0c2f-4a9e-8b61-3f4c5d6e7a80",
  connection: { id: "primary", name: "Main app" },
  createdAt: "2026-03-10T11:00:00Z",
  read: false,
  ...patch,
});

const ITEMS = [
  item({ id: 3 }),
  item({ id: 2, kind: "outcome_rejected", caseRef: "REF-2024-118", actorName: null }),
  item({ id: 1, kind: "case_escalated", caseRef: "REF-2024-119", actorName: "Caio Prado" }),
];

async function openBell(ui = <NotificationBell currentConnection="primary" />, items = ITEMS) {
  mockApi({ "GET /api/notifications": { items, unread: 3 } });
  const { user } = renderWithProviders(ui);
  const bell = await screen.findByRole("button", { name: /(Notifications, 3 unread|Notificações, 3 não lidas)/ });
  await user.click(bell);
  return screen.findByTestId("notification-list");
}

const links = (list: HTMLElement) =>
  within(list)
    .getAllByRole("link")
    .map((link) => [link.textContent, link.getAttribute("href")]);

describe("NotificationBell", () => {
  it("names the case by its ref, what happened to the member's work, and who did it", async () => {
    const list = await openBell();
    await waitFor(() =>
      expect(links(list)).toEqual([
        ["Case REF-2024-117: your recommendation was confirmed by Renata Quintela", ITEMS[0]!.href],
        ["Case REF-2024-118: your recommendation was overruled by Someone", ITEMS[1]!.href],
        ["Case REF-2024-119: escalated to your queue by Caio Prado", ITEMS[2]!.href],
      ]),
    );
  });

  it("says it in Portuguese too", async () => {
    const messages = await loadMessages("pt-BR");
    const list = await openBell(
      <NextIntlClientProvider locale="pt-BR" messages={messages} timeZone={TIME_ZONE}>
        <NotificationBell currentConnection="primary" />
      </NextIntlClientProvider>,
    );
    await waitFor(() =>
      expect(links(list).map(([text]) => text)).toEqual([
        "Caso REF-2024-117: sua recomendação foi confirmada por Renata Quintela",
        "Caso REF-2024-118: sua recomendação foi rejeitada por Alguém",
        "Caso REF-2024-119: escalado para a sua fila por Caio Prado",
      ]),
    );
  });

  it("names the connection of a notification from another one than the page's, and links under it", async () => {
    const elsewhere = item({
      id: 4,
      href: "/c/brand-two/verifications/7d1e5b3a-0c2f-4a9e-8b61-3f4c5d6e7a80",
      connection: { id: "brand-two", name: "Brand two" },
    });
    const list = await openBell(undefined, [elsewhere, ...ITEMS]);
    await waitFor(() => expect(links(list)[0]).toEqual([expect.stringContaining("REF-2024-117"), elsewhere.href]));
    const rows = within(list).getAllByTestId("notification-item");
    expect(rows[0]).toHaveTextContent("In the connection Brand two");
    // The page's own connection's notifications name none.
    expect(rows.slice(1).map((row) => row.textContent)).not.toContainEqual(expect.stringContaining("In the connection"));
  });
});
