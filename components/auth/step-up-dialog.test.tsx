import { screen, waitFor, within } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";

import { apiRequest } from "@/lib/shared/api-client/api-request";
import { apiError, mockApi, renderWithProviders, type ApiAnswer } from "@/test/render";

/*
 * The step-up dialog as a member meets it: an action refused with `step_up_required` opens it in place (the
 * provider of test/render.tsx, as in the signed-in shell), the member proves a factor, and the same request goes
 * again; cancelling fails the action with the dialog's words. Any action will do: here a button that posts.
 */

const STEP_UP_REFUSAL = apiError(401, { code: "step_up_required", message: "A recent second factor is needed." });

function Action() {
  const [result, setResult] = useState("");
  return (
    <>
      <button
        type="button"
        onClick={() =>
          void apiRequest<{ done: boolean }>("/api/things", { method: "POST", body: { name: "kept as typed" } }).then(
            () => setResult("Done."),
            (error: Error) => setResult(error.message),
          )
        }
      >
        Do it
      </button>
      <p role="status">{result}</p>
    </>
  );
}

/** `methods`: the member's step-up methods; `factors`: GET /api/account/factors's answers in turn, when not that. */
function answers({
  methods = ["totp", "recovery"],
  factors,
  stepUp = { verifiedAt: "2026-03-10T12:00:00Z", until: "2026-03-10T12:05:00Z" },
}: { methods?: string[]; factors?: ApiAnswer[]; stepUp?: ApiAnswer | ApiAnswer[] } = {}) {
  return mockApi({
    "POST /api/things": [STEP_UP_REFUSAL, { done: true }],
    "GET /api/account/factors": factors ?? { stepUpMethods: methods },
    "POST /api/account/step-up": stepUp,
  });
}

async function refusedAction(api = answers()) {
  const view = renderWithProviders(<Action />);
  await view.user.click(screen.getByRole("button", { name: "Do it" }));
  const dialog = await screen.findByRole("dialog", { name: "Confirm it is you" });
  return { api, dialog, ...view };
}

describe("StepUpDialog", () => {
  it("asks for a code, then sends the refused request again as it was", async () => {
    const { user, dialog, api } = await refusedAction();
    expect(dialog).toHaveAccessibleDescription(expect.stringContaining("This action needs your second factor."));
    const code = within(dialog).getByLabelText("Code");
    expect(code).toHaveAccessibleDescription(expect.stringContaining("or one of your recovery codes"));
    await user.type(code, " 123456 ");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));

    expect(await screen.findByText("Done.")).toBeVisible();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.callsTo("POST /api/account/step-up")[0]?.body).toEqual({ code: "123456" });
    const sent = api.callsTo("POST /api/things");
    expect(sent).toHaveLength(2);
    expect(sent[1]?.body).toEqual(sent[0]?.body);
  });

  it("names an empty code on its field and sends nothing", async () => {
    const { user, dialog, api } = await refusedAction();
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    const code = within(dialog).getByLabelText("Code");
    expect(code).toHaveAttribute("aria-invalid", "true");
    expect(code).toHaveAccessibleDescription(expect.stringContaining("Code: type the code."));
    expect(api.callsTo("POST /api/account/step-up")).toHaveLength(0);
  });

  it("a code refused stays in the dialog, named on the field; too many tries are said apart", async () => {
    const api = answers({
      stepUp: [
        apiError(400, { code: "validation", message: "code: not accepted", fields: ["code"] }),
        apiError(429, { code: "rate_limited", message: "Too many requests." }),
      ],
    });
    const { user, dialog } = await refusedAction(api);
    const code = within(dialog).getByLabelText("Code");
    await user.type(code, "000000");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(expect.stringContaining("Code: this code was not accepted.")));

    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await within(dialog).findByText("Too many attempts. Wait a few minutes and try again.")).toBeVisible();
    expect(api.callsTo("POST /api/things")).toHaveLength(1);
  });

  it("cancelling fails the action with the dialog's words and does not send it again", async () => {
    const { user, dialog, api } = await refusedAction();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "Not done: this action needs you to confirm it is you, and the confirmation was cancelled.",
    );
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(api.callsTo("POST /api/things")).toHaveLength(1);
  });

  it("a question left open when the shell goes away is answered, so the next page's step-up opens its dialog", async () => {
    const { unmount } = await refusedAction(
      mockApi({
        "POST /api/things": [STEP_UP_REFUSAL, STEP_UP_REFUSAL, { done: true }],
        "GET /api/account/factors": { stepUpMethods: ["totp"] },
        "POST /api/account/step-up": { verifiedAt: "2026-03-10T12:00:00Z", until: "2026-03-10T12:05:00Z" },
      }),
    );
    unmount();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();

    const again = renderWithProviders(<Action />);
    await again.user.click(screen.getByRole("button", { name: "Do it" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it is you" });
    await again.user.type(within(dialog).getByLabelText(/code/i), "123456");
    await again.user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(screen.getByRole("status")).toHaveTextContent("Done."));
  });

  it("Escape cancels too", async () => {
    const { user, api } = await refusedAction();
    await user.keyboard("{Escape}");
    expect(await screen.findByRole("status")).toHaveTextContent("Not done:");
    expect(api.callsTo("POST /api/things")).toHaveLength(1);
  });

  it("a member with no second factor confirms with the password", async () => {
    const { user, dialog, api } = await refusedAction(answers({ methods: ["password"] }));
    expect(dialog).toHaveAccessibleDescription(expect.stringContaining("This action needs your password again."));
    expect(within(dialog).queryByLabelText("Code")).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText("Password"), "correct horse");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("Done.")).toBeVisible();
    expect(api.callsTo("POST /api/account/step-up")[0]?.body).toEqual({ password: "correct horse" });
  });

  it("when the member's factors cannot be read, says so and reads them again on Try again", async () => {
    const api = answers({ factors: [apiError(503, { code: "upstream_unavailable", message: "down" }), { stepUpMethods: ["totp"] }] });
    const { user, dialog } = await refusedAction(api);
    expect(within(dialog).getByText("Your second factors could not be read. Try again.")).toBeVisible();
    await user.click(within(dialog).getByRole("button", { name: "Try again" }));
    expect(await within(dialog).findByLabelText("Code")).toHaveAccessibleDescription(
      expect.stringContaining("The 6-digit code from your authenticator app."),
    );
    expect(api.callsTo("GET /api/account/factors")).toHaveLength(2);
  });

  it("a member with no way to confirm is told where to add one, and offered no Confirm", async () => {
    const { dialog } = await refusedAction(answers({ methods: [] }));
    expect(within(dialog).getByText("You have no way to confirm this action. Add a second factor on your account page.")).toBeVisible();
    expect(within(dialog).queryByRole("button", { name: "Confirm" })).not.toBeInTheDocument();
  });
});
