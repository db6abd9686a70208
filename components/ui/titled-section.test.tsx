import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { renderWithProviders } from "@/test/render";

import { TitledSection } from "./titled-section";

describe("TitledSection", () => {
  it("is a region named by its heading, the lead and the content inside", () => {
    renderWithProviders(
      <TitledSection id="retention-heading" title="Retention" lead="How long each record is kept.">
        <p>The table</p>
      </TitledSection>,
    );
    const region = screen.getByRole("region", { name: "Retention" });
    expect(region).toContainElement(screen.getByRole("heading", { level: 2, name: "Retention" }));
    expect(region).toHaveTextContent("How long each record is kept.");
    expect(region).toHaveTextContent("The table");
  });
});
