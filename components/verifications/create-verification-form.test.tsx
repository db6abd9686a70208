import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { ConnectionFlow } from "@/lib/connections/flows";
import { mockApi, renderWithProviders, status } from "@/test/render";

import { CreateVerificationForm } from "./create-verification-form";

/*
 * What the creation dialog sends: the schema version every creation example of the provider sends ("1.0",
 * legitimuz-examples pocs/express-backend/server.ts) unless the analyst changes it, and the flow: typed, when the
 * connection names none (sent on as `flow_public_id`; a flow id that is not an id is refused on its field before any
 * call), else chosen among the connection's, its first when untouched.
 */

const created = status(201, { created: { publicId: "ver-new-1", status: "not_opened", refId: "order-9", replayed: false } });

function connectionsNaming(flows: ConnectionFlow[]) {
  const current = { id: "primary", name: "Sandbox", current: true, flows, defaultFlow: flows[0]?.id ?? null };
  const other = {
    id: "other",
    name: "Other",
    current: false,
    flows: [{ id: "other-flow", label: "Other flow" }],
    defaultFlow: "other-flow",
  };
  return { connections: [other, current] };
}

async function fillAndSend(flow?: string, flows: ConnectionFlow[] = []) {
  const api = mockApi({ "POST /api/verifications": created, "GET /api/connections": connectionsNaming(flows) });
  const view = renderWithProviders(<CreateVerificationForm open onOpenChange={() => undefined} />);
  // The dialog's code loads when it first opens (components/ui/dialog.tsx): waited for, however slow the machine.
  await screen.findByRole("dialog", { name: "Create a verification" }, { timeout: 15_000 });
  // The connection's flows turn the field into a choice once they arrive.
  if (flows.length) await screen.findByRole("combobox", { name: "Flow" });
  await view.user.type(screen.getByLabelText(/Your reference id/), "order-9");
  await view.user.type(screen.getByLabelText(/Document number/), "529.982.247-25");
  if (flow !== undefined) await view.user.type(screen.getByLabelText(/Flow \(optional\)/), flow);
  await view.user.click(screen.getByRole("button", { name: "Create verification" }));
  return api;
}

describe("the creation dialog", () => {
  it("sends schema version 1.0 by default and no flow when none is typed", async () => {
    const api = await fillAndSend();
    await screen.findByText("Verification created");
    expect(api.callsTo("POST /api/verifications").map((call) => call.body)).toEqual([
      { schemaVersion: "1.0", refId: "order-9", document: { type: "cpf", number: "529.982.247-25" } },
    ]);
  });

  it("sends the flow typed", async () => {
    const api = await fillAndSend("kyc-sow");
    await screen.findByText("Verification created");
    expect(api.callsTo("POST /api/verifications")[0]!.body).toMatchObject({ schemaVersion: "1.0", flowPublicId: "kyc-sow" });
  });

  it("refuses a flow that is not an id on its field, before any call", async () => {
    const api = await fillAndSend("../flows");
    expect(await screen.findByLabelText(/Flow \(optional\)/)).toHaveAttribute("aria-invalid", "true");
    expect(api.callsTo("POST /api/verifications")).toEqual([]);
  });

  const named = [
    { id: "kyc-faceindex", label: "Onboarding" },
    { id: "kyc-sow", label: "Source of wealth" },
  ];

  it("offers the connection's flows and sends its first when none is chosen", async () => {
    const api = await fillAndSend(undefined, named);
    await screen.findByText("Verification created");
    expect(api.callsTo("POST /api/verifications")[0]!.body).toMatchObject({ flowPublicId: "kyc-faceindex" });
  });

  it("sends the flow chosen among the connection's, and offers no other connection's", async () => {
    const api = mockApi({ "POST /api/verifications": created, "GET /api/connections": connectionsNaming(named) });
    const view = renderWithProviders(<CreateVerificationForm open onOpenChange={() => undefined} />);
    const select = await screen.findByRole("combobox", { name: "Flow" }, { timeout: 15_000 });
    expect([...select.querySelectorAll("option")].map((option) => option.value)).toEqual(["kyc-faceindex", "kyc-sow"]);
    expect(select).toHaveValue("kyc-faceindex");
    await view.user.type(screen.getByLabelText(/Your reference id/), "order-9");
    await view.user.type(screen.getByLabelText(/Document number/), "529.982.247-25");
    await view.user.selectOptions(select, "kyc-sow");
    await view.user.click(screen.getByRole("button", { name: "Create verification" }));
    await screen.findByText("Verification created");
    expect(api.callsTo("POST /api/verifications")[0]!.body).toMatchObject({ flowPublicId: "kyc-sow" });
  });
});
