import { describe, expect, it } from "vitest";

import { recalledListView, rememberListView } from "./list-memory";

/* The views the list drew in this tab, for the detail's previous and next: the last ten, by their address query. */

const view = (id: string) => ({ ids: [id], pagination: { page: 1, perPage: 20, total: 1, totalPages: 1 }, pagingAvailable: true });

describe("list memory", () => {
  it("recalls a view by its query, the last drawing winning", () => {
    rememberListView("status=review", view("vrf_1"));
    rememberListView("status=review", view("vrf_2"));
    expect(recalledListView("status=review")?.ids).toEqual(["vrf_2"]);
    expect(recalledListView("status=approved")).toBeUndefined();
  });

  it("keeps the ten views drawn last, a view drawn again counting as new", () => {
    for (let n = 0; n < 10; n += 1) rememberListView(`page=${n}`, view(`vrf_${n}`));
    rememberListView("page=0", view("vrf_0"));
    rememberListView("page=10", view("vrf_10"));
    expect(recalledListView("page=0")?.ids).toEqual(["vrf_0"]);
    expect(recalledListView("page=1")).toBeUndefined();
    expect(recalledListView("page=10")?.ids).toEqual(["vrf_10"]);
  });
});
