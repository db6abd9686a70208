import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { Alert, SuccessNotice } from "./alert";

describe("Alert", () => {
  it("announces an error at once and anything else politely", () => {
    render(
      <>
        <Alert tone="error">Refused</Alert>
        <Alert tone="success">Saved</Alert>
      </>,
    );
    expect(screen.getByRole("alert")).toHaveTextContent("Refused");
    expect(screen.getByRole("status")).toHaveTextContent("Saved");
  });
});

describe("SuccessNotice: where a page tells its last success", () => {
  it("keeps its live region on screen while there is nothing to tell, so a later message is announced", () => {
    const { container, rerender } = render(<SuccessNotice>{null}</SuccessNotice>);
    const region = container.querySelector('[aria-live="polite"]');
    expect(region).toBeEmptyDOMElement();
    rerender(<SuccessNotice>Role saved</SuccessNotice>);
    // The same region, now holding the success box.
    expect(container.querySelector('[aria-live="polite"]')).toBe(region);
    expect(screen.getByRole("status")).toHaveTextContent("Role saved");
  });
});
