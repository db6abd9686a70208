import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { IntegrationListResponse } from "@/lib/integrations/types";
import type { IntegrationKeySummary } from "@/lib/integrations/validation";
import { apiError, mockApi, renderWithProviders, router, type ApiAnswer } from "@/test/render";

import { IntegrationKeys } from "./integration-keys";

/*
 * The integration keys' list as an admin meets it: each key's state in words (a badge, never colour alone), a retired
 * key with who, when and why and the reminder that it still works at the service, and retiring through a dialog that
 * asks the reason (checked before anything is sent), says the service is not revoked, and goes through the step-up
 * the API asks for.
 */

function key(upstreamId: number, label: string, retired?: { at: string; by: string; reason: string }): IntegrationKeySummary {
  return {
    id: `00000000-0000-4000-8000-${String(upstreamId).padStart(12, "0")}`,
    upstreamId,
    label,
    domain: `${label.toLowerCase().replace(/ /g, "-")}.example.com`,
    createdAt: "2026-03-01T12:00:00Z",
    upstreamCreatedAt: null,
    createdByEmail: "admin@example.com",
    state: retired ? "retired" : "active",
    retiredAt: retired?.at ?? null,
    retiredByEmail: retired?.by ?? null,
    retireReason: retired?.reason ?? null,
  };
}

const store = key(11, "Online store");
const old = key(12, "Old kiosk", { at: "2026-03-05T15:30:00Z", by: "maria@example.com", reason: "The kiosk closed" });
const list = (keys: IntegrationKeySummary[]): IntegrationListResponse => ({ keys, revealable: [], revealWindowSeconds: 600 });

function renderKeys(retire: ApiAnswer | ApiAnswer[] = { key: { ...store, state: "retired" } }) {
  const api = mockApi({
    "POST /api/integrations/11/retire": retire,
    "GET /api/account/factors": { stepUpMethods: ["password"] },
    "POST /api/account/step-up": { verifiedAt: "2026-03-10T12:00:00Z", until: "2026-03-10T12:05:00Z" },
  });
  // The page draws the list on the server and hands it here; a request that changed it has the page drawn again.
  return { api, ...renderWithProviders(<IntegrationKeys list={list([store, old])} />, { url: "/admin/integrations" }) };
}

async function rowOf(label: string) {
  return (await screen.findByRole("rowheader", { name: label })).closest("tr")!;
}

describe("the integration keys' states", () => {
  it("names each key's state in words, and a retired key's who, when, why and that it still works at the service", async () => {
    renderKeys();
    const active = await rowOf("Online store");
    expect(within(active).getByText("Active")).toBeInTheDocument();
    expect(within(active).getByRole("button", { name: "Retire Online store (online-store.example.com)" })).toBeInTheDocument();

    const retired = await rowOf("Old kiosk");
    expect(within(retired).getByText("Retired here")).toBeInTheDocument();
    expect(retired).toHaveTextContent(/Marked retired .+ by maria@example\.com\./);
    expect(retired.querySelector('time[datetime="2026-03-05T15:30:00Z"]')).not.toBeNull();
    expect(within(retired).getByText("Reason: The kiosk closed")).toBeInTheDocument();
    expect(within(retired).getByText("Still valid at the service until revoked in the provider's dashboard.")).toBeInTheDocument();
    // Nothing left to retire on a retired key.
    expect(within(retired).queryByRole("button", { name: /Retire/ })).not.toBeInTheDocument();
  });
});

describe("retiring a key", () => {
  it("asks the reason first, says the service is not revoked, and sends it after the step-up the API asks for", async () => {
    const refusal = apiError(401, { code: "step_up_required", message: "A recent second factor is needed." });
    const { user, api } = renderKeys([
      refusal,
      { key: { ...store, state: "retired", retiredAt: "2026-03-10T12:00:00Z", retireReason: "Moved" } },
    ]);
    await user.click(await screen.findByRole("button", { name: "Retire Online store (online-store.example.com)" }));
    const dialog = await screen.findByRole("dialog", { name: "Retire the key Online store?" });
    expect(dialog).toHaveTextContent("This does not revoke the key at the service");
    expect(dialog).toHaveTextContent("revoke it in the provider's own dashboard too");

    // No reason: refused in the form, nothing sent.
    await user.click(within(dialog).getByRole("button", { name: "Retire key" }));
    const reason = within(dialog).getByLabelText("Reason");
    expect(reason).toHaveAccessibleDescription(expect.stringContaining("Give the reason for retiring the key."));
    expect(reason).toHaveFocus();
    expect(api.callsTo("POST /api/integrations/11/retire")).toHaveLength(0);

    await user.type(reason, "  Moved to a new domain ");
    await user.click(within(dialog).getByRole("button", { name: "Retire key" }));
    const stepUp = await screen.findByRole("dialog", { name: "Confirm it is you" });
    await user.type(within(stepUp).getByLabelText("Password"), "secret password");
    await user.click(within(stepUp).getByRole("button", { name: "Confirm" }));

    await waitFor(() => expect(api.callsTo("POST /api/integrations/11/retire")).toHaveLength(2));
    expect(api.callsTo("POST /api/integrations/11/retire").map((call) => call.body)).toEqual([
      { reason: "Moved to a new domain" },
      { reason: "Moved to a new domain" },
    ]);
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    // Done, said where the button was, with focus there; the page is drawn again (the row's new state).
    const done = await screen.findByRole("status");
    expect(done).toHaveTextContent("Online store is marked retired");
    expect(done).toHaveTextContent("Revoke it in the provider's own dashboard as well");
    expect(done).toHaveFocus();
    expect(router.refresh).toHaveBeenCalled();
  });

  it("shows the refusal of a key another admin retired meanwhile, and stays open", async () => {
    const { user } = renderKeys(apiError(409, { code: "conflict", message: "This key is already marked retired." }));
    await user.click(await screen.findByRole("button", { name: "Retire Online store (online-store.example.com)" }));
    const dialog = await screen.findByRole("dialog", { name: "Retire the key Online store?" });
    await user.type(within(dialog).getByLabelText("Reason"), "No longer used");
    await user.click(within(dialog).getByRole("button", { name: "Retire key" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("This key is already marked retired");
    expect(within(dialog).getByLabelText("Reason")).toHaveValue("No longer used");
    // Refused because the list changed meanwhile: drawn again, so the row shows who retired it.
    expect(router.refresh).toHaveBeenCalled();
  });

  it("marks the reason the server refused", async () => {
    const { user } = renderKeys(apiError(400, { code: "validation", message: "Invalid input: reason", fields: ["reason"] }));
    await user.click(await screen.findByRole("button", { name: "Retire Online store (online-store.example.com)" }));
    const dialog = await screen.findByRole("dialog", { name: "Retire the key Online store?" });
    await user.type(within(dialog).getByLabelText("Reason"), "See the ticket");
    await user.click(within(dialog).getByRole("button", { name: "Retire key" }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText("Reason")).toHaveAccessibleDescription(
        expect.stringContaining("The dashboard refused this reason"),
      ),
    );
  });
});
