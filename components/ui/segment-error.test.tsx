import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { renderWithProviders } from "@/test/render";

import { SegmentError } from "./segment-error";

describe("SegmentError", () => {
  it("says the generic error by default, or the segment's own words, with a retry", async () => {
    let resets = 0;
    const { user, rerender } = renderWithProviders(<SegmentError reset={() => (resets += 1)} />);
    expect(screen.getByRole("alert")).toHaveTextContent("Something went wrong");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(resets).toBe(1);
    rerender(<SegmentError reset={() => undefined} texts={{ title: "The log failed", body: "Try later.", retry: "Again" }} />);
    expect(screen.getByRole("alert")).toHaveTextContent("The log failedTry later.");
    expect(screen.getByRole("button", { name: "Again" })).toBeInTheDocument();
  });
});
