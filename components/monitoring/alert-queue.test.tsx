import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { BUILT_IN_PERMISSIONS } from "@/lib/auth/permissions";
import type { MonitoringAlert } from "@/lib/monitoring/types";
import { mockApi, renderWithProviders } from "@/test/render";

import { AlertQueue } from "./alert-queue";

/*
 * The Monitoring queue under the review queue: each open alert says what changed, whose it is and when it was seen; a
 * member takes an unheld one, its holder clears or confirms it, and a member who neither holds it nor runs the queue
 * gets no outcome buttons. The queue selector asks for one queue's alerts; the notes open under the row, where the holder adds one.
 */

const ME = "8d0f5a3e-1b2c-4d5e-9f60-718293a4b5c6";
const PEP: MonitoringAlert = {
  id: "1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b",
  publicId: "ver-pep",
  documentMasked: "***.982.247-**",
  change: "pep",
  detectedAt: "2026-10-01T12:00:00Z",
  status: "open",
  queue: { id: "00000000-0000-4000-8000-000000000001", name: "General" },
  assignee: null,
  outcome: null,
  outcomeAt: null,
};
const LISTED: MonitoringAlert = {
  ...PEP,
  id: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d",
  publicId: "ver-list",
  change: "list:OFAC",
  assignee: { id: ME, name: "Me" },
};
const OTHERS: MonitoringAlert = {
  ...PEP,
  id: "3b4c5d6e-7f8a-4b9c-8d1e-2f3a4b5c6d7e",
  publicId: "ver-dead",
  change: "deceased",
  assignee: { id: "someone", name: "Ana" },
};

describe("AlertQueue", () => {
  it("lists what changed and lets an analyst take an alert and decide their own", async () => {
    const api = mockApi({
      "GET /api/monitoring/alerts": { alerts: [PEP, LISTED, OTHERS], queues: [PEP.queue] },
      [`POST /api/monitoring/alerts/${PEP.id}/assignment`]: { id: PEP.id, assignee: ME },
      [`POST /api/monitoring/alerts/${LISTED.id}/outcome`]: { id: LISTED.id, outcome: "cleared" },
    });
    const { user } = renderWithProviders(<AlertQueue viewer={{ id: ME, permissions: BUILT_IN_PERMISSIONS.analyst }} />);
    const table = await screen.findByRole("table");
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows.map((row) => within(row).getAllByRole("cell")[0]!.textContent)).toEqual([
      "Became a politically exposed person",
      "On the restrictive list OFAC",
      "Deceased",
    ]);
    expect(within(rows[0]!).getByRole("link", { name: "***.982.247-**" })).toBeInTheDocument();
    // Another member's alert: its notes can be read, nothing more.
    expect(
      within(rows[2]!)
        .getAllByRole("button")
        .map((button) => button.textContent),
    ).toEqual(["Notes"]);

    await user.click(screen.getByRole("button", { name: "Take the alert on ver-pep" }));
    expect(api.callsTo(`POST /api/monitoring/alerts/${PEP.id}/assignment`)).toHaveLength(1);
    await user.click(screen.getByRole("button", { name: "Clear the alert on ver-list" }));
    expect(api.callsTo(`POST /api/monitoring/alerts/${LISTED.id}/outcome`)[0]?.body).toEqual({ outcome: "cleared" });
  });

  it("says when nothing is open", async () => {
    mockApi({ "GET /api/monitoring/alerts": { alerts: [], queues: [PEP.queue] } });
    renderWithProviders(<AlertQueue viewer={{ id: ME, permissions: BUILT_IN_PERMISSIONS.analyst }} />);
    expect(await screen.findByText("No open monitoring alert.")).toBeInTheDocument();
  });

  it("filters by queue, shows each alert's queue, and lets its holder read and add notes", async () => {
    const WATCH = { id: "4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f", name: "Watch list" };
    const api = mockApi({
      "GET /api/monitoring/alerts": { alerts: [{ ...LISTED, queue: WATCH }], queues: [PEP.queue, WATCH] },
      [`GET /api/monitoring/alerts/${LISTED.id}/notes`]: {
        notes: [
          {
            id: 1,
            at: "2026-10-02T09:00:00Z",
            author: { id: ME, name: "Me" },
            text: "Asked for the OFAC record",
            unreadable: false,
            redacted: false,
          },
        ],
      },
      [`POST /api/monitoring/alerts/${LISTED.id}/notes`]: { id: 2, at: "2026-10-02T10:00:00Z" },
    });
    const { user } = renderWithProviders(<AlertQueue viewer={{ id: ME, permissions: BUILT_IN_PERMISSIONS.analyst }} />);
    const table = await screen.findByRole("table");
    expect(within(within(table).getAllByRole("row")[1]!).getByRole("cell", { name: "Watch list" })).toBeInTheDocument();

    await user.selectOptions(screen.getByRole("combobox", { name: "Queue" }), WATCH.id);
    expect(api.callsTo("GET /api/monitoring/alerts").some((call) => call.url.includes(`queue_id=${WATCH.id}`))).toBe(true);

    await user.click(await screen.findByRole("button", { name: "Notes on the alert on ver-list" }));
    expect(await screen.findByText("Asked for the OFAC record")).toBeInTheDocument();
    await user.type(screen.getByRole("textbox", { name: "Add a note" }), "Record received: a namesake");
    await user.click(screen.getByRole("button", { name: "Add note" }));
    expect(api.callsTo(`POST /api/monitoring/alerts/${LISTED.id}/notes`)[0]?.body).toEqual({ text: "Record received: a namesake" });
  });
});
