import { settledAxe } from "./axe";
import { caseOf, cpfOfPerson, moveUpstream, waitForOpenCase } from "./case-support";
import { expect, sandbox, test, WRITE } from "./fixtures";
import { inEnglish } from "./verification-support";

/*
 * Ongoing screening in a real browser (issue 34, item 2): a person the team approved becomes a PEP at the service (the
 * sandbox's control route), a screening run opens a monitoring alert, and an admin works it from the Monitoring queue
 * on /cases: the populated queue is axe clean, the alert is taken, a note is added and read back under its row, and
 * clearing it takes it off the open queue.
 */

interface AlertRow {
  id: string;
  publicId: string;
  change: string;
  status: string;
}

test("an approved person who becomes a PEP raises an alert the team takes, annotates and clears", async ({ adminPage: page }) => {
  test.setTimeout(120_000);
  await inEnglish(page);
  // A person the service knows nothing against: approved without a second person's confirmation, and no flag that
  // the screening would take as already known.
  const cpf = cpfOfPerson(
    (person) => !person.pep && person.restrictiveLists.length === 0 && !person.deceased,
    Math.floor(Math.random() * 999_000_000),
  );
  const created = await page.request.post("/api/verifications", {
    headers: WRITE,
    data: { schemaVersion: "1", refId: `e2e-monitoring-${Date.now()}`, document: { type: "cpf", number: cpf } },
  });
  expect(created.status()).toBe(201);
  const publicId = ((await created.json()) as { created: { publicId: string } }).created.publicId;
  await moveUpstream(publicId, "review");
  await waitForOpenCase(page.request, publicId);
  const path = `/api/cases/${encodeURIComponent(publicId)}`;
  expect((await page.request.post(`${path}/assignment`, { headers: WRITE, data: { assignee: "me" } })).status()).toBe(200);
  const approved = await page.request.post(`${path}/outcome`, {
    headers: WRITE,
    data: { recommendation: "approve", reasons: ["identity_confirmed"], comment: "" },
  });
  expect(approved.status()).toBe(200);
  expect((await caseOf(page.request, publicId)).outcomeState).toBe("recorded");

  // What the service knows of the person changes after the approval.
  const facts = await fetch(`${sandbox.url}/sandbox/people/${cpf}/facts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ pep: true, pep_origin: "Prefeito" }),
  });
  expect(facts.status).toBe(200);
  expect((await page.request.put("/api/monitoring/settings", { headers: WRITE, data: { dailyBudget: 5000 } })).status()).toBe(200);

  // A run on demand; while the schedule's run holds the lease it answers `ran: false`, and the next try screens.
  const alertOf = async (): Promise<AlertRow | undefined> => {
    const run = await page.request.post("/api/monitoring/run", { headers: WRITE, data: {} });
    expect(run.status()).toBe(200);
    const list = await page.request.get("/api/monitoring/alerts?status=open");
    expect(list.status()).toBe(200);
    return ((await list.json()) as { alerts: AlertRow[] }).alerts.find((alert) => alert.publicId === publicId);
  };
  await expect.poll(async () => (await alertOf())?.change, { timeout: 60_000, intervals: [500, 1_000, 2_000] }).toBe("pep");

  await page.goto("/cases#monitoring");
  const queue = page.getByRole("region", { name: "Monitoring" });
  const take = queue.getByRole("button", { name: `Take the alert on ${publicId}` });
  await expect(take).toBeVisible();
  await expect(queue.getByText("Became a politically exposed person").first()).toBeVisible();
  expect((await (await settledAxe(page)).analyze()).violations).toEqual([]);

  await take.click();
  await expect(take).toHaveCount(0);
  const note = `Checked the mayoral list on ${new Date().toISOString().slice(0, 10)}: same person.`;
  await queue.getByRole("button", { name: `Notes on the alert on ${publicId}` }).click();
  await queue.getByRole("textbox", { name: "Add a note" }).fill(note);
  await queue.getByRole("button", { name: "Add note" }).click();
  await expect(queue.getByRole("list", { name: "Notes on this alert" }).getByText(note)).toBeVisible();
  await expect(queue.getByRole("textbox", { name: "Add a note" })).toHaveValue("");

  await queue.getByRole("button", { name: `Clear the alert on ${publicId}` }).click();
  await expect(queue.getByRole("button", { name: `Clear the alert on ${publicId}` })).toHaveCount(0);
  const closed = await page.request.get("/api/monitoring/alerts?status=closed");
  const done = ((await closed.json()) as { alerts: Array<AlertRow & { outcome: string }> }).alerts.find(
    (alert) => alert.publicId === publicId,
  );
  expect(done).toMatchObject({ change: "pep", status: "closed", outcome: "cleared" });
});
