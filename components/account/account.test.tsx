import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import type { FactorDto, FactorsResponse, SessionDto } from "@/lib/account/types";
import { apiError, mockApi, renderWithProviders, router } from "@/test/render";

import { FactorList } from "./factor-list";
import { SecondFactors } from "./second-factors";
import { SessionsSection } from "./sessions-section";

/*
 * The account page's lists are drawn on the server and handed here; what the member does to them (remove a factor,
 * end a device's sessions, end every other one) is an island whose request has the page drawn again. The codes shown
 * once, and the way on after a required enrolment, outlive that redraw.
 */

const factor = (id: string, label: string, kind: FactorDto["kind"] = "totp"): FactorDto => ({
  id,
  kind,
  label,
  confirmed: true,
  createdAt: "2026-03-01T12:00:00Z",
  lastUsedAt: null,
});
const factors = (list: FactorDto[]): FactorsResponse => ({
  factors: list,
  recoveryCodesLeft: 8,
  required: false,
  stepUpMethods: ["password"],
});

const session = (id: string, browser: string, current = false, count = 1): SessionDto => ({
  id,
  browser,
  system: "Linux",
  ip: "203.0.113.7",
  method: "password",
  createdAt: "2026-03-09T12:00:00Z",
  lastSeenAt: "2026-03-10T11:00:00Z",
  count,
  current,
});

describe("removing a second factor", () => {
  it("asks first, warns when it is the only one, sends the removal, then tells it and has the page drawn again", async () => {
    const api = mockApi({ "DELETE /api/account/factors/f1": { removed: true } });
    const { user } = renderWithProviders(<FactorList data={factors([factor("f1", "Work phone")])} />, { url: "/account" });
    await user.click(screen.getByRole("button", { name: "Remove Work phone" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove “Work phone”?" });
    expect(dialog).toHaveTextContent("This is your only second factor.");
    expect(api.callsTo("DELETE /api/account/factors/f1")).toHaveLength(0);

    await user.click(within(dialog).getByRole("button", { name: "Remove" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(api.callsTo("DELETE /api/account/factors/f1")).toHaveLength(1);
    expect(await screen.findByRole("status")).toHaveTextContent("“Work phone” was removed.");
    expect(router.refresh).toHaveBeenCalled();
  });

  it("keeps the dialog open with the reason when the removal is refused, and draws the page again", async () => {
    mockApi({ "DELETE /api/account/factors/f2": apiError(500, { code: "internal", message: "Failed." }) });
    const { user } = renderWithProviders(<FactorList data={factors([factor("f1", "Work phone"), factor("f2", "Laptop", "passkey")])} />);
    await user.click(screen.getByRole("button", { name: "Remove Laptop" }));
    const dialog = await screen.findByRole("dialog", { name: "Remove “Laptop”?" });
    expect(dialog).toHaveTextContent("It will no longer work for signing in");
    await user.click(within(dialog).getByRole("button", { name: "Remove" }));
    expect(await within(dialog).findByRole("alert")).toHaveTextContent("The factor could not be removed.");
    expect(router.refresh).toHaveBeenCalled();
  });
});

describe("ending sessions", () => {
  const sessions = [session("s-this", "Firefox", true), session("s-phone", "Chrome", false, 2)];

  it("ends one device's sessions from its row, tells it, and has the page drawn again", async () => {
    const api = mockApi({ "DELETE /api/account/sessions/s-phone": { ended: true } });
    const { user } = renderWithProviders(<SessionsSection sessions={sessions} />, { url: "/account" });
    // This device has no button of its own.
    expect(screen.queryByRole("button", { name: "End the sessions of Firefox on Linux" })).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "End the sessions of Chrome on Linux" }));
    expect(await screen.findByRole("status")).toHaveTextContent("Chrome on Linux was signed out.");
    expect(api.callsTo("DELETE /api/account/sessions/s-phone")).toHaveLength(1);
    expect(router.refresh).toHaveBeenCalled();
  });

  it("ends every other session after asking, counting this device's older ones", async () => {
    const api = mockApi({ "DELETE /api/account/sessions": { ended: 2 } });
    const { user } = renderWithProviders(<SessionsSection sessions={sessions} />, { url: "/account" });
    await user.click(screen.getByRole("button", { name: "End all other sessions" }));
    const dialog = await screen.findByRole("dialog", { name: "End all other sessions?" });
    expect(dialog).toHaveTextContent("The 2 other sessions where you are signed in will be signed out.");
    expect(api.callsTo("DELETE /api/account/sessions")).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "End all other sessions" }));
    expect(await screen.findByRole("status")).toHaveTextContent("2 other sessions were ended.");
    expect(api.callsTo("DELETE /api/account/sessions")).toHaveLength(1);
    expect(router.refresh).toHaveBeenCalled();
  });

  it("says there is nothing else to end when this is the only session", () => {
    renderWithProviders(<SessionsSection sessions={[session("s-this", "Firefox", true)]} />);
    expect(screen.getByText("You are not signed in anywhere else.")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "End all other sessions" })).not.toBeInTheDocument();
  });
});

describe("a required enrolment", () => {
  it("keeps the recovery codes and the way on when the page is drawn again after the first factor", async () => {
    const api = mockApi({
      "POST /api/account/factors/totp": {
        id: "t1",
        secret: "JBSWY3DPEHPK3PXP",
        otpauthUri: "otpauth://totp/x",
        qrDataUrl: "data:image/png;base64,AA==",
      },
      "POST /api/account/factors/totp/t1/verify": { factor: factor("t1", "Work phone"), recoveryCodes: ["aaaa-bbbb", "cccc-dddd"] },
    });
    const draw = (enrolling: boolean, hasConfirmed: boolean) => (
      <SecondFactors enrolling={enrolling} asked={false} required hasConfirmed={hasConfirmed}>
        <FactorList data={factors(hasConfirmed ? [factor("t1", "Work phone")] : [])} />
      </SecondFactors>
    );
    const { user, rerender } = renderWithProviders(draw(true, false), { url: "/account" });
    expect(screen.getByText("Second factor required")).toBeInTheDocument();

    await user.type(screen.getByLabelText("Name for this app"), "Work phone");
    await user.click(screen.getByRole("button", { name: "Add an authenticator app" }));
    await user.type(await screen.findByLabelText("Code"), "123456");
    await user.click(screen.getByRole("button", { name: "Verify and add" }));
    expect(await screen.findByText("aaaa-bbbb")).toBeInTheDocument();
    expect(api.callsTo("POST /api/account/factors/totp/t1/verify").map((call) => call.body)).toEqual([{ code: "123456" }]);
    expect(router.refresh).toHaveBeenCalled();

    // The server draws the page again: the session has left enrolment and the factor is listed.
    rerender(draw(false, true));
    expect(screen.getByRole("list", { name: "Your second factors" })).toHaveTextContent("Work phone");
    expect(screen.getByText("aaaa-bbbb")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "I have saved these codes" }));
    expect(screen.queryByText("aaaa-bbbb")).not.toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Continue" })).toHaveAttribute("href", "/");
    expect(screen.queryByText("Second factor required")).not.toBeInTheDocument();
  });
});
