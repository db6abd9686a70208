import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { renderWithProviders } from "@/test/render";

import { QueryView } from "./query-view";

/* A read's three states where its data goes: loading, failed with a retry, and the data. */

function renderView(query: { data: { names: string[] } | undefined; isError: boolean; refetch: () => unknown }) {
  return renderWithProviders(
    <QueryView query={query} failed="The list could not be loaded." retryLabel="Try again" loading="Loading…">
      {(data) => <p>{data.names.join(", ")}</p>}
    </QueryView>,
  );
}

describe("QueryView", () => {
  it("shows the loading line until the data comes", () => {
    renderView({ data: undefined, isError: false, refetch: vi.fn() });
    expect(screen.getByText("Loading…")).toBeInTheDocument();
  });

  it("shows the failure with a button that asks again", async () => {
    const refetch = vi.fn();
    const { user } = renderView({ data: undefined, isError: true, refetch });
    expect(screen.getByRole("alert")).toHaveTextContent("The list could not be loaded.");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  it("shows the data once it has come, even when a later refresh failed", () => {
    renderView({ data: { names: ["Ana", "Bruno"] }, isError: true, refetch: vi.fn() });
    expect(screen.getByText("Ana, Bruno")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });
});
