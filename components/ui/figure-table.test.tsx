import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";

import { ColumnHead, FigureCell, FigureTable, RowHead } from "./figure-table";

describe("FigureTable", () => {
  it("draws its caption, column headings, rows and totals' row", () => {
    render(
      <FigureTable
        caption="Verifications by status"
        head={
          <>
            <ColumnHead>Status</ColumnHead>
            <ColumnHead numeric>Count</ColumnHead>
          </>
        }
        foot={
          <>
            <RowHead total>Total</RowHead>
            <FigureCell total>3</FigureCell>
          </>
        }
      >
        <tr>
          <RowHead>Approved</RowHead>
          <FigureCell>3</FigureCell>
        </tr>
      </FigureTable>,
    );
    const table = screen.getByRole("table", { name: "Verifications by status" });
    expect(
      within(table)
        .getAllByRole("columnheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Status", "Count"]);
    expect(
      within(table)
        .getAllByRole("rowheader")
        .map((cell) => cell.textContent),
    ).toEqual(["Approved", "Total"]);
    expect(table.querySelector("tfoot")).toHaveTextContent("Total3");
  });

  it("has no totals' row unless given one", () => {
    render(
      <FigureTable caption="Backlog" narrow head={<ColumnHead>Age</ColumnHead>}>
        <tr>
          <RowHead>Today</RowHead>
        </tr>
      </FigureTable>,
    );
    expect(screen.getByRole("table", { name: "Backlog" }).querySelector("tfoot")).toBeNull();
  });
});
