import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { ErasureDto, ErasureListResponse } from "@/lib/privacy/erasure";
import { apiError, mockApi, renderWithProviders, router } from "@/test/render";

import { ErasurePanel } from "./erasure-panel";

/*
 * Erasure on request (components/privacy/erasure-panel.tsx), drawn from the page's lists: one member asks, another
 * confirms; the requester's own Confirm is disabled and says why; each outcome, a refusal too, has the page drawn again,
 * and what was erased stays shown meanwhile.
 */

const ana = { id: "m1", name: "Ana Conceição", email: "ana@example.com" };
const bruno = { id: "m2", name: "Bruno Lima", email: "bruno@example.com" };

function erasure(id: string, change: Partial<ErasureDto> = {}): ErasureDto {
  return {
    id,
    documentMasked: "***.982.247-**",
    reason: "Email of 3 March, ticket 4411",
    state: "pending",
    requestedBy: bruno,
    requestedAt: "2026-03-03T12:00:00.000Z",
    ownRequest: false,
    decidedBy: null,
    decidedAt: null,
    result: null,
    ...change,
  };
}

const LISTS: ErasureListResponse = {
  pending: [erasure("e1"), erasure("e2", { documentMasked: "***.111.111-**", requestedBy: ana, ownRequest: true })],
  recent: [erasure("e0", { documentMasked: "***.000.000-**", state: "cancelled", decidedBy: ana, decidedAt: "2026-03-01T12:00:00.000Z" })],
};

const RESULT = {
  verifications: 2,
  cases: 1,
  erased: { case_texts: 3, outcome_comments: 1, person_names: 1, document_crops: 2, index_entries: 4, webhook_bodies: 5, screenings: 0 },
  kept: [{ kind: "audit_trail" as const, count: 12, reason: "legal" }],
};

describe("ErasurePanel", () => {
  it("lists what waits and what was decided, and says why the requester's own Confirm is disabled, asking nothing", () => {
    const api = mockApi({});
    renderWithProviders(<ErasurePanel data={LISTS} />);
    const pending = within(screen.getByRole("list", { name: "Erasure requests waiting for confirmation" })).getAllByRole("listitem");
    expect(pending).toHaveLength(2);
    expect(within(pending[0]!).getByRole("button", { name: "Confirm the erasure of ***.982.247-**" })).toBeEnabled();
    const own = within(pending[1]!).getByRole("button", { name: "Confirm the erasure of ***.111.111-**" });
    expect(own).toBeDisabled();
    expect(own).toHaveAccessibleDescription(expect.stringContaining("another member holding the erasure permission must confirm it"));
    expect(screen.getByRole("list", { name: "Recently decided erasure requests" })).toHaveTextContent("***.000.000-**");
    expect(api.calls).toEqual([]);
  });

  it("confirms after asking, draws the page again and shows what was erased", async () => {
    const api = mockApi({
      "POST /api/privacy/erasures/e1/confirm": { erasure: erasure("e1", { state: "confirmed", decidedBy: ana, result: RESULT }) },
    });
    const { user } = renderWithProviders(<ErasurePanel data={LISTS} />);
    await user.click(screen.getByRole("button", { name: "Confirm the erasure of ***.982.247-**" }));
    const dialog = await screen.findByRole("dialog", { name: "Erase this person's data?" });
    expect(api.calls).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Erase" }));
    expect(await screen.findByRole("heading", { name: "Erased: ***.982.247-**" })).toBeVisible();
    expect(api.callsTo("POST /api/privacy/erasures/e1/confirm")).toHaveLength(1);
    expect(router.refresh).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("cancels after asking, says so and draws the page again", async () => {
    mockApi({ "POST /api/privacy/erasures/e1/cancel": { erasure: erasure("e1", { state: "cancelled", decidedBy: ana }) } });
    const { user } = renderWithProviders(<ErasurePanel data={LISTS} />);
    await user.click(screen.getByRole("button", { name: "Cancel the erasure request for ***.982.247-**" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel this request?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel request" }));
    expect(await screen.findByText("The erasure request for ***.982.247-** was cancelled.")).toBeVisible();
    expect(screen.queryByRole("heading", { name: /^Erased:/ })).toBeNull();
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });

  it("says another member decided first, keeps the dialog open and draws the page again", async () => {
    mockApi({ "POST /api/privacy/erasures/e1/cancel": apiError(409, { code: "conflict", message: "Already decided" }) });
    const { user } = renderWithProviders(<ErasurePanel data={LISTS} />);
    await user.click(screen.getByRole("button", { name: "Cancel the erasure request for ***.982.247-**" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel this request?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel request" }));
    expect(await within(dialog).findByText("Another member decided this request first. The list shows it as it is now.")).toBeVisible();
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });

  it("asks for an erasure with the CPF in the body only, and says who must confirm it", async () => {
    const api = mockApi({ "POST /api/privacy/erasures": { erasure: erasure("e3") } });
    const { user } = renderWithProviders(<ErasurePanel data={LISTS} />);
    await user.type(screen.getByLabelText("CPF of the person asking for erasure"), "52998224725");
    await user.type(screen.getByLabelText("Reason"), "Email of 3 March, ticket 4411");
    await user.click(screen.getByRole("button", { name: "Ask for erasure" }));
    expect(await screen.findByText("Erasure of ***.982.247-** asked. Another member must confirm it.")).toBeVisible();
    expect(api.callsTo("POST /api/privacy/erasures")[0]?.body).toEqual({ cpf: "529.982.247-25", reason: "Email of 3 March, ticket 4411" });
    expect(api.calls.every((call) => !call.url.includes("529"))).toBe(true);
    expect(router.refresh).toHaveBeenCalledTimes(1);
  });
});
