import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { renderWithProviders, router } from "@/test/render";

import { ServerErrorState } from "./server-error-state";
import { ViewNavigationProvider } from "./view-navigation";

/*
 * A view the server failed to draw (the verifications list, the audit log): its error state comes with its code
 * (loaded for a failed page only), says what failed as the route handler would have, and its retry asks the server to
 * draw the view again; a failure a retry cannot mend offers none.
 */

function renderState(error: Parameters<typeof ServerErrorState>[0]["error"]) {
  return renderWithProviders(
    <ViewNavigationProvider path="/verifications">
      <ServerErrorState error={error} />
    </ViewNavigationProvider>,
    { url: "/verifications?status=review" },
  );
}

describe("ServerErrorState", () => {
  it("names a service that did not answer, with a retry that draws the view again", async () => {
    const { user } = renderState({ status: 504, code: "upstream_unavailable", message: "timeout", retryable: true, requestId: "req-42" });
    expect(await screen.findByText("The verification service is not answering")).toBeInTheDocument();
    expect(screen.getByText("req-42")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(router.refresh).toHaveBeenCalledTimes(1);
    expect(router.push).not.toHaveBeenCalled();
  });

  it("offers no retry for a refusal a retry cannot mend", async () => {
    renderState({ status: 403, code: "forbidden", message: "no", retryable: false });
    expect(await screen.findByText("You are not allowed to do this")).toBeInTheDocument();
    expect(screen.queryByRole("button")).toBeNull();
  });
});
