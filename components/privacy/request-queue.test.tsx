import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { PrivacyRequestDto, PrivacyRequestListResponse } from "@/lib/privacy/requests";
import { apiError, mockApi, renderWithProviders, router } from "@/test/render";

import { PrivacyRequestsPanel } from "./request-queue";

/*
 * The titular requests' queue: the open requests in the order the server gives (late first), each saying how late it
 * is or how many days it has left in words; registering one sends the CPF in the body only, refusing a date in the
 * future before anything is sent; closing one sends what was sent and says why a refusal happened. The page draws the
 * lists on the server: each outcome, a refusal too, has it drawn again.
 */

const member = { id: "m1", name: "Ana Conceição", email: "ana@example.com" };

function request(id: string, change: Partial<PrivacyRequestDto>): PrivacyRequestDto {
  return {
    id,
    documentMasked: "***.982.247-**",
    kind: "access",
    channel: "email",
    contact: null,
    contactMasked: false,
    receivedAt: "2026-01-01T12:00:00.000Z",
    dueAt: "2026-01-16T12:00:00.000Z",
    daysLeft: 5,
    late: false,
    state: "open",
    openedBy: member,
    openedAt: "2026-01-01T12:00:00.000Z",
    lateNotifiedAt: null,
    closedBy: null,
    closedAt: null,
    sent: null,
    answer: null,
    erasureId: null,
    reportEventId: null,
    ...change,
  };
}

const LIST: PrivacyRequestListResponse = {
  open: [
    request("a", {
      documentMasked: "***.111.111-**",
      late: true,
      daysLeft: -4,
      kind: "erasure",
      lateNotifiedAt: "2026-01-17T12:00:00.000Z",
    }),
    request("b", { documentMasked: "***.222.222-**", daysLeft: 2, contact: "m***@example.com", contactMasked: true }),
    request("c", { documentMasked: "***.333.333-**", daysLeft: 14, kind: "portability" }),
  ],
  closed: [
    request("d", {
      documentMasked: "***.444.444-**",
      state: "closed",
      closedAt: "2026-01-10T12:00:00.000Z",
      closedBy: member,
      sent: "written",
      answer: "Dados corrigidos.",
      kind: "correction",
    }),
  ],
  dueDays: 15,
};

describe("PrivacyRequestsPanel", () => {
  it("lists the open requests late first, with days late or left in words, and the closed ones apart", async () => {
    const api = mockApi({});
    // The due days the server reads from PRIVACY_REQUEST_DUE_DAYS.
    renderWithProviders(<PrivacyRequestsPanel data={{ ...LIST, dueDays: 20 }} mayErase />);
    expect(screen.getByRole("heading", { name: "Titular requests" }).closest("section")).toHaveTextContent(
      "due 20 days after it was received",
    );
    const open = screen.getByRole("list", { name: "Open titular requests, late first" });
    const items = within(open).getAllByRole("listitem");
    expect(items.map((item) => item.querySelector(".font-mono")?.textContent)).toEqual([
      "***.111.111-**",
      "***.222.222-**",
      "***.333.333-**",
    ]);
    expect(items[0]).toHaveTextContent("Late by 4 days");
    expect(items[0]).toHaveTextContent("Privacy officers told it is late on");
    expect(items[1]).toHaveTextContent("2 days left");
    expect(items[1]).toHaveTextContent("m***@example.com (masked)");
    expect(items[2]).toHaveTextContent("14 days left");
    expect(within(items[0]!).getByRole("link", { name: "Build the titular report" })).toHaveAttribute("href", "#titular-heading");
    expect(within(items[0]!).getByRole("link", { name: "Ask for the erasure" })).toHaveAttribute("href", "#erasure-heading");
    const closed = screen.getByRole("list", { name: "Recently closed titular requests" });
    expect(closed).toHaveTextContent("***.444.444-**");
    expect(closed).toHaveTextContent("with A written answer only");
    expect(api.calls).toEqual([]);
  });

  it("registers a request with the CPF in the body only, and refuses a date in the future before sending", async () => {
    const api = mockApi({
      "POST /api/privacy/requests": { request: request("e", { dueAt: "2026-02-01T12:00:00.000Z" }) },
    });
    const { user } = renderWithProviders(<PrivacyRequestsPanel data={LIST} mayErase={false} />);
    expect(screen.queryByRole("link", { name: "Ask for the erasure" })).toBeNull();
    await user.type(screen.getByLabelText("CPF of the person making the request"), "52998224725");
    await user.selectOptions(screen.getByLabelText("What the person asks"), "portability");
    await user.selectOptions(screen.getByLabelText("Received through"), "letter");
    const received = screen.getByLabelText("Received at");
    await user.clear(received);
    await user.type(received, "2999-01-01T10:00");
    await user.click(screen.getByRole("button", { name: "Register request" }));
    expect(received).toHaveAccessibleDescription(expect.stringContaining("A request cannot be received in the future."));
    expect(api.callsTo("POST /api/privacy/requests")).toHaveLength(0);

    await user.clear(received);
    await user.type(received, "2026-01-05T09:30");
    await user.type(screen.getByLabelText("Contact for the answer (optional)"), "titular@example.com");
    await user.click(screen.getByRole("button", { name: "Register request" }));
    await waitFor(() => expect(api.callsTo("POST /api/privacy/requests")).toHaveLength(1));
    const [sent] = api.callsTo("POST /api/privacy/requests");
    expect(sent?.body).toMatchObject({ cpf: "529.982.247-25", kind: "portability", channel: "letter", contact: "titular@example.com" });
    expect(new Date((sent?.body as { receivedAt: string }).receivedAt).toISOString()).toBe(
      (sent?.body as { receivedAt: string }).receivedAt,
    );
    expect(api.calls.every((call) => !call.url.includes("52998224725") && !call.url.includes("529.982"))).toBe(true);
    expect(await screen.findByText(/Request for \*\*\*\.982\.247-\*\* registered/)).toBeInTheDocument();
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });

  it("closes a request with what was sent, and says why when the server refuses", async () => {
    const api = mockApi({
      "POST /api/privacy/requests/b/close": apiError(409, { code: "conflict", message: "No titular report" }),
    });
    const { user } = renderWithProviders(<PrivacyRequestsPanel data={LIST} mayErase />);
    await user.click(screen.getByRole("button", { name: "Close the request of ***.222.222-**" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByLabelText("What was sent")).toHaveDisplayValue("The titular report");
    await user.click(within(dialog).getByRole("button", { name: "Close request" }));
    expect(within(dialog).getByLabelText("Written answer")).toHaveAccessibleDescription(
      expect.stringContaining("Write what was sent to the person."),
    );
    await user.type(within(dialog).getByLabelText("Written answer"), "Relatório enviado por e-mail.");
    await user.click(within(dialog).getByRole("button", { name: "Close request" }));
    expect(await within(dialog).findByText(/Not closed: the request was closed already/)).toBeInTheDocument();
    expect(api.callsTo("POST /api/privacy/requests/b/close")[0]?.body).toEqual({ answer: "Relatório enviado por e-mail.", sent: "report" });
    // Someone else may have closed it: the lists are drawn again, and the dialog stays open with the reason.
    expect(router.refresh).toHaveBeenCalledTimes(1);
    expect(dialog).toBeVisible();
  });
});
