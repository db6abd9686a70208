import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";

import { DataBody, DataCell, DataRow, DataTable } from "./data-table";

/*
 * A cell's label on a phone's card is drawn by CSS (app/globals.css, "The one table pattern"): from the table's
 * `columns`, written once as `--col-N`, or from the cell's `data-label`; so a row's HTML carries no label element. A
 * value of several parts is wrapped, so the card keeps it as one item beside its label; a lone text or HTML element
 * needs no wrapper.
 */

function table(cell: ReactNode) {
  render(
    <DataTable caption="Things">
      <DataBody>
        <DataRow>{cell}</DataRow>
      </DataBody>
    </DataTable>,
  );
  return screen.getByRole("cell");
}

describe("DataCell", () => {
  it("names a field by its attribute, with no label element", () => {
    const cell = table(<DataCell label="Risk score">60</DataCell>);
    expect(cell).toHaveAttribute("data-label", "Risk score");
    // A field is any cell but a title or actions: no class of its own.
    expect(cell.className).toBe("px-3 py-2 max-md:p-0");
    expect(cell.textContent).toBe("60");
    expect(cell.querySelector(".data-value")).toBeNull();
  });

  it("wraps a value of several parts, and a component's, but not one element", () => {
    const parts = table(
      <DataCell label="Document">
        ***.615.346-**<span className="sr-only"> (masked)</span>
      </DataCell>,
    );
    expect(parts.querySelector(".data-value")?.textContent).toBe("***.615.346-** (masked)");
    document.body.innerHTML = "";

    function Two() {
      return (
        <>
          a<b>b</b>
        </>
      );
    }
    expect(table(<DataCell label="Two">{<Two />}</DataCell>).querySelector(".data-value")?.textContent).toBe("ab");
    document.body.innerHTML = "";

    const one = table(
      <DataCell label="Flags">
        <span className="dim">—</span>
      </DataCell>,
    );
    expect(one.querySelector(".data-value")).toBeNull();
    expect(one.firstElementChild).toHaveClass("dim");
  });

  it("keeps the label off a title or actions cell, and leaves the padding to the table when told", () => {
    render(
      <DataTable caption="Things">
        <DataBody>
          <DataRow>
            <DataCell rowHeader kind="title" label="Id" pad="">
              x
            </DataCell>
            <DataCell kind="actions" label="Actions">
              <button type="button">Go</button>
            </DataCell>
          </DataRow>
        </DataBody>
      </DataTable>,
    );
    const header = screen.getByRole("rowheader");
    expect(header).not.toHaveAttribute("data-label");
    expect(header.className).not.toMatch(/\bp[xy]?-/);
    const actions = screen.getByRole("cell");
    expect(actions).not.toHaveAttribute("data-label");
    expect(actions).toHaveClass("px-3", "py-2");
  });

  it("writes the columns' labels once on the table, as CSS strings, none for a column without", () => {
    render(
      <DataTable caption="Things" columns={[null, "Score de risco", 'Say "hi" \\ bye']}>
        <DataBody>
          <DataRow>
            <DataCell rowHeader kind="title">
              x
            </DataCell>
            <DataCell>60</DataCell>
            <DataCell>y</DataCell>
          </DataRow>
        </DataBody>
      </DataTable>,
    );
    const style = screen.getByRole("table").style;
    expect(style.getPropertyValue("--col-1")).toBe("");
    expect(style.getPropertyValue("--col-2")).toBe('"Score de risco"');
    expect(style.getPropertyValue("--col-3")).toBe('"Say \\"hi\\" \\\\ bye"');
    expect(screen.getAllByRole("cell").every((cell) => !cell.hasAttribute("data-label"))).toBe(true);
  });
});
