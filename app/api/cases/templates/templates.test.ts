import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";

import { auditEvents } from "@/lib/audit-trail/server/tables";
import type { CaseTemplate } from "@/lib/cases/templates";
import { apiRequest, createStaffHolding, sessionCookieFor, signedInStaff } from "@/test/auth";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { PATCH as patchTemplate, DELETE as retireTemplate } from "./[id]/route";
import { POST as createTemplate, GET as listTemplates } from "./route";

/*
 * Decision templates through the API: a member who decides cases keeps their own (nobody else sees or changes
 * them: 404), the team's are read by everyone and managed with cases.assign only (403), every bad field is named
 * before anything is written (reasons of another kind, an unknown placeholder, a CPF), and each change is audited.
 */

type Json = Record<string, unknown>;
type Failure = { error: { code: string; fields?: string[]; message: string } };
const read = async <T = Json>(response: Response) => (await response.json()) as T;
const params = (id: string) => ({ params: Promise.resolve({ id }) });
const NO_PARAMS = { params: Promise.resolve({}) };

withTestEnvironment();

describeEachDatabase("case templates on $name", ({ open }) => {
  const handle = withProcessDatabase(open);
  let analyst: string;
  let analystId: string;
  let otherAnalyst: string;
  let lead: string;
  let viewer: string;

  beforeAll(async () => {
    const signedIn = await signedInStaff(handle.db, { role: "analyst" });
    ({ cookie: analyst } = signedIn);
    analystId = signedIn.user.id;
    ({ cookie: otherAnalyst } = await signedInStaff(handle.db, { role: "analyst" }));
    ({ cookie: lead } = await signedInStaff(handle.db, { role: "reviewer" }));
    viewer = await sessionCookieFor(handle.db, await createStaffHolding(handle.db, ["cases.read"], "Viewer"));
  });

  const create = (body: unknown, as = analyst) =>
    createTemplate(apiRequest("/api/cases/templates", { method: "POST", cookie: as, body }), NO_PARAMS);
  const list = async (as = analyst, search = "") =>
    (await read<{ templates: CaseTemplate[] }>(await listTemplates(apiRequest(`/api/cases/templates${search}`, { cookie: as }), NO_PARAMS)))
      .templates;
  const patch = (id: string, body: unknown, as = analyst) =>
    patchTemplate(apiRequest(`/api/cases/templates/${id}`, { method: "PATCH", cookie: as, body }), params(id));
  const retire = (id: string, as = analyst) =>
    retireTemplate(apiRequest(`/api/cases/templates/${id}`, { method: "DELETE", cookie: as }), params(id));
  const created = async (body: unknown, as = analyst) => {
    const response = await create(body, as);
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
    return (await read<{ template: CaseTemplate }>(response)).template;
  };

  const blurry = {
    kind: "reprove",
    scope: "personal",
    name: "Blurry",
    reasons: ["low_image_quality"],
    comment: "Blurry photo ({failing_step}).",
  };

  it("keeps a member's own templates to themselves: another member neither lists, changes nor retires them (404)", async () => {
    const mine = await created(blurry);
    expect(mine).toMatchObject({ kind: "reprove", scope: "personal", name: "Blurry", editable: true });
    expect((await list()).map((template) => template.id)).toContain(mine.id);
    expect((await list(otherAnalyst)).map((template) => template.id)).not.toContain(mine.id);
    expect((await patch(mine.id, { name: "Stolen" }, otherAnalyst)).status).toBe(404);
    expect((await retire(mine.id, otherAnalyst)).status).toBe(404);
    // Even a lead (cases.assign) cannot reach a member's own template.
    expect((await patch(mine.id, { name: "Stolen" }, lead)).status).toBe(404);
    const renamed = await patch(mine.id, { name: "Blurry photo", comment: "Blurry: {failing_step} on {verification_date}." });
    expect(renamed.status).toBe(200);
    expect((await read<{ template: CaseTemplate }>(renamed)).template).toMatchObject({
      name: "Blurry photo",
      reasons: ["low_image_quality"],
    });
  });

  it("lets everyone who decides read the team's templates, and only cases.assign manage them (403)", async () => {
    expect((await create({ ...blurry, scope: "team", name: "Team blurry" })).status).toBe(403);
    const team = await created({ ...blurry, scope: "team", name: "Team blurry" }, lead);
    const seen = (await list()).find((template) => template.id === team.id);
    expect(seen).toMatchObject({ scope: "team", editable: false });
    expect((await patch(team.id, { name: "Mine now" })).status).toBe(403);
    expect((await retire(team.id)).status).toBe(403);
    expect((await patch(team.id, { reasons: ["document_expired", "other"] }, lead)).status).toBe(200);
    // The team's come first, and a kind filter keeps to that kind.
    const reproves = await list(analyst, "?kind=reprove");
    expect(reproves[0]?.scope).toBe("team");
    expect(reproves.every((template) => template.kind === "reprove")).toBe(true);
    expect(await list(analyst, "?kind=approve")).toEqual([]);
    expect((await retire(team.id, lead)).status).toBe(200);
    expect((await list()).map((template) => template.id)).not.toContain(team.id);
    expect((await patch(team.id, { name: "Back" }, lead)).status).toBe(404);
  });

  it("is refused to a member who does not decide cases (403)", async () => {
    expect((await listTemplates(apiRequest("/api/cases/templates", { cookie: viewer }), NO_PARAMS)).status).toBe(403);
    expect((await create(blurry, viewer)).status).toBe(403);
  });

  it("names the bad field before writing anything", async () => {
    for (const [body, field, words] of [
      [{ ...blurry, name: "" }, "name", "empty"],
      [{ ...blurry, reasons: ["identity_confirmed"] }, "reasons", "this kind"],
      [{ ...blurry, reasons: [] }, "reasons", "at least one"],
      [{ ...blurry, comment: "Photo of {person_name} is blurry." }, "comment", "{person_name}"],
      [{ ...blurry, comment: "CPF 123.456.789-09 does not match." }, "comment", "CPF"],
      [{ ...blurry, name: "Reprove 12345678909" }, "name", "CPF"],
      [{ ...blurry, kind: "decline" }, "kind", ""],
      [{ ...blurry, scope: "everyone" }, "scope", ""],
    ] as const) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const { error } = await read<Failure>(response);
      expect(error.fields, JSON.stringify(body)).toContain(field);
      expect(error.message).toContain(words);
    }
    const mine = await created({ ...blurry, name: "To patch" });
    const wrongKind = await patch(mine.id, { reasons: ["identity_confirmed"] });
    expect(wrongKind.status).toBe(400);
    expect((await read<Failure>(wrongKind)).error.fields).toEqual(["reasons"]);
    expect((await patch(mine.id, { comment: "{nope}" })).status).toBe(400);
    expect((await list()).find((template) => template.id === mine.id)?.comment).toBe(blurry.comment);
  });

  it("changes a template's kind with reasons of the new kind, and names `reasons` when they do not fit it", async () => {
    const mine = await created({ ...blurry, name: "Kind change" });
    // The kept reasons are the old kind's: the new kind alone does not fit them.
    const alone = await patch(mine.id, { kind: "approve" });
    expect(alone.status).toBe(400);
    expect((await read<Failure>(alone)).error.fields).toEqual(["reasons"]);
    // Sent together and not fitting: refused by the schema, the field named.
    const mixed = await patch(mine.id, { kind: "approve", reasons: ["low_image_quality"] });
    expect(mixed.status).toBe(400);
    expect((await read<Failure>(mixed)).error.fields).toContain("reasons");
    expect((await list()).find((template) => template.id === mine.id)?.kind).toBe("reprove");
    const changed = await patch(mine.id, {
      kind: "approve",
      reasons: ["identity_confirmed"],
      comment: "All checks passed on {verification_date}.",
    });
    expect(changed.status).toBe(200);
    expect((await read<{ template: CaseTemplate }>(changed)).template).toMatchObject({
      kind: "approve",
      name: "Kind change",
      reasons: ["identity_confirmed"],
      comment: "All checks passed on {verification_date}.",
    });
    // Moved onto a name the new kind already has: 409 on `name`.
    await created({ kind: "escalate", scope: "personal", name: "Kind change", reasons: ["other"] });
    const clash = await patch(mine.id, { kind: "escalate", reasons: ["other"] });
    expect(clash.status).toBe(409);
    expect((await read<Failure>(clash)).error.fields).toEqual(["name"]);
    const [event] = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, mine.id), eq(auditEvents.action, "case.template_change")));
    expect(event?.details).toMatchObject({ kind: "approve", previousKind: "reprove", fields: "comment,kind,reasons" });
  });

  it("refuses a second live template of the same kind and name, whatever its case (409 naming name)", async () => {
    await created({ ...blurry, name: "Expired" });
    const again = await create({ ...blurry, name: "EXPIRED" });
    expect(again.status).toBe(409);
    expect((await read<Failure>(again)).error.fields).toEqual(["name"]);
    // Another kind, or another member: the name is free.
    expect((await create({ kind: "escalate", scope: "personal", name: "Expired", reasons: ["other"] })).status).toBe(201);
    expect((await create({ ...blurry, name: "Expired" }, otherAnalyst)).status).toBe(201);
  });

  it("puts each change on the trail with its kind and scope, never its words", async () => {
    const mine = await created({ ...blurry, name: "Audited" });
    await patch(mine.id, { comment: "Other words." });
    await retire(mine.id);
    const trail = await handle.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.target, mine.id), eq(auditEvents.actorId, analystId)));
    expect(trail.map((event) => event.action).sort()).toEqual(["case.template_change", "case.template_create", "case.template_retire"]);
    for (const event of trail) {
      expect(event).toMatchObject({ outcome: "success", targetType: "case_template" });
      expect(event.details).toMatchObject({ kind: "reprove", scope: "personal" });
      expect(JSON.stringify(event.details)).not.toContain("Other words");
    }
  });
});
