import { render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { BareButton, Button } from "./button";

/** The button as the server's HTML has it, before any script runs. */
function serverHtml(element: React.ReactElement): HTMLButtonElement {
  const host = document.createElement("div");
  host.innerHTML = renderToString(element);
  return host.querySelector("button")!;
}

describe("Button before and after hydration", () => {
  it("draws a submit button disabled in the server's HTML: its form is handled by script alone", () => {
    expect(serverHtml(<Button type="submit">Apply</Button>).disabled).toBe(true);
  });

  it("keeps a submit button pressable in the server's HTML when its form works without the script", () => {
    expect(
      serverHtml(
        <Button type="submit" withoutScript>
          Sign in
        </Button>,
      ).disabled,
    ).toBe(false);
  });

  it("draws a plain button disabled in the server's HTML: its handler is not attached yet, a press would be lost", () => {
    expect(serverHtml(<Button>Open</Button>).disabled).toBe(true);
    expect(serverHtml(<BareButton className="underline">Details</BareButton>).disabled).toBe(true);
  });

  it("keeps a reset button pressable in the server's HTML: the browser resets the form itself", () => {
    expect(serverHtml(<BareButton type="reset">Clear</BareButton>).disabled).toBe(false);
  });

  it("enables every button once the page's code runs, and still honours disabled and pending", () => {
    render(
      <>
        <Button type="submit">Apply</Button>
        <Button type="submit" disabled>
          Locked
        </Button>
        <Button type="submit" pending>
          Sending
        </Button>
        <Button>Open</Button>
        <BareButton>Details</BareButton>
        <BareButton disabled>Closed</BareButton>
      </>,
    );
    expect(screen.getByRole("button", { name: "Apply" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Locked" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Sending" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Open" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Details" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Closed" })).toBeDisabled();
  });
});
