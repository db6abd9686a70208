import { screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";

import { renderWithProviders } from "@/test/render";

import { PurposeField, type PurposeFieldProblem } from "./purpose-field";

/* The purpose input: its value handed to the form, the problem said under it with the rule's bounds, tied to it. */

function Form({ initial }: { initial?: PurposeFieldProblem }) {
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState(initial);
  return (
    <PurposeField
      id="purpose"
      label="Purpose"
      hint="Why you need it"
      value={value}
      onValueChange={(next) => {
        setValue(next);
        setProblem(undefined);
      }}
      problem={problem}
      messages={(shown, { min, max }) => `${shown} ${min}-${max}`}
    />
  );
}

describe("PurposeField", () => {
  it("says the problem with the rule's bounds, tied to the input, and clears it when edited", async () => {
    const { user } = renderWithProviders(<Form initial="too_short" />);
    const input = screen.getByRole("textbox", { name: "Purpose" });
    expect(input).toHaveAttribute("name", "purpose");
    expect(input).toBeRequired();
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveAccessibleDescription("Why you need it too_short 5-300");
    await user.type(input, "onboarding");
    expect(input).toHaveValue("onboarding");
    expect(input).not.toHaveAttribute("aria-invalid");
  });

  it("lets a too long purpose be typed, so the rule rather than the input says so", () => {
    renderWithProviders(<Form />);
    expect(screen.getByRole("textbox", { name: "Purpose" })).toHaveAttribute("maxLength", "350");
  });
});
