import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { focusFirstProblem } from "./focus-first-problem";

function Fields() {
  return (
    <>
      <input id="cpf" aria-label="CPF" />
      <input id="purpose" aria-label="Purpose" />
    </>
  );
}

describe("focusFirstProblem", () => {
  it("focuses the first field with a problem, in the order given, and says the form stops", () => {
    render(<Fields />);
    expect(focusFirstProblem({ cpf: undefined, purpose: "required" })).toBe(true);
    expect(screen.getByLabelText("Purpose")).toHaveFocus();
    expect(focusFirstProblem({ cpf: "check_digits", purpose: "required" })).toBe(true);
    expect(screen.getByLabelText("CPF")).toHaveFocus();
  });

  it("lets the form go on when no field has a problem", () => {
    render(<Fields />);
    expect(focusFirstProblem({ cpf: undefined, purpose: undefined })).toBe(false);
    expect(document.body).toHaveFocus();
  });
});
