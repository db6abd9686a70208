import { beforeAll, expect, it } from "vitest";

import { DELETE as clearCrop, PUT as setCrop } from "@/app/api/verifications/[publicId]/crop/route";
import { type Permission } from "@/lib/auth/permissions";
import type { StaffUserDto } from "@/lib/auth/types";
import { applyObservations, observe } from "@/lib/cases/server/store";
import { apiRequest, createStaffHolding, createTestStaff, sessionCookieFor } from "@/test/auth";
import { makeVerification, TEST_SETTINGS } from "@/test/cases";
import { describeEachDatabase, withProcessDatabase, withTestEnvironment } from "@/test/db";

import { POST as assign } from "./[publicId]/assignment/route";
import { POST as note } from "./[publicId]/notes/route";
import { POST as reverify } from "./[publicId]/reverification/route";

/*
 * Case work stays the worker's: notes on a case are its assignee's or a queue runner's (cases.assign), never any
 * member's with cases.work; drawing a portrait crop (verifications.crop) and asking for a re-verification, which
 * creates a verification upstream (verifications.reverify), each have their own permission, not the images' read or
 * case work.
 */

type Json = { error?: { code: string; message: string } };
const params = (publicId: string) => ({ params: Promise.resolve({ publicId }) });

describeEachDatabase("case work permissions on $name", ({ open }) => {
  withTestEnvironment({ SANDBOX_URL: "http://127.0.0.1:9", UPSTREAM_READ_RETRIES: "0", UPSTREAM_TIMEOUT_MS: "2000" });
  const handle = withProcessDatabase(open);

  beforeAll(async () => {
    // Upstream calls go to a closed port: what is under test is who gets past the door.
  });

  async function holding(permissions: Permission[]): Promise<{ user: StaffUserDto; cookie: string }> {
    const user = await createStaffHolding(handle.db, permissions, "Worker");
    return { user, cookie: await sessionCookieFor(handle.db, user) };
  }
  async function openCase(): Promise<string> {
    const verification = makeVerification();
    await applyObservations(handle.db, [observe(verification, TEST_SETTINGS)], TEST_SETTINGS);
    return verification.publicId;
  }
  const post = (path: string, cookie: string, body: unknown) => apiRequest(`/api${path}`, { method: "POST", cookie, body });
  const addNote = (publicId: string, cookie: string) =>
    note(post(`/cases/${publicId}/notes`, cookie, { text: "Checked the address." }), params(publicId));

  it("notes: the assignee's and a queue runner's, not another worker's (403), not on an unassigned case", async () => {
    const publicId = await openCase();
    const owner = await holding(["cases.read", "cases.work"]);
    const other = await holding(["cases.read", "cases.work"]);
    const unassigned = await addNote(publicId, other.cookie);
    expect(unassigned.status).toBe(403);
    expect((await assign(post(`/cases/${publicId}/assignment`, owner.cookie, { assignee: "me" }), params(publicId))).status).toBe(200);
    const someoneElses = await addNote(publicId, other.cookie);
    expect(someoneElses.status).toBe(403);
    expect(((await someoneElses.json()) as Json).error?.message).toMatch(/assignee/);
    expect((await addNote(publicId, owner.cookie)).status).toBe(201);
    const reviewer = await createTestStaff(handle.db, { role: "reviewer" });
    expect((await addNote(publicId, await sessionCookieFor(handle.db, reviewer))).status).toBe(201);
  });

  it("crop writes need verifications.crop: seeing the images is not enough", async () => {
    const publicId = await openCase();
    const looker = await holding(["verifications.read", "media.read"]);
    const box = { x: 0.1, y: 0.1, w: 0.3, h: 0.3 };
    const put = (cookie: string) =>
      setCrop(apiRequest(`/api/verifications/${publicId}/crop`, { method: "PUT", cookie, body: box }), params(publicId));
    const del = (cookie: string) =>
      clearCrop(apiRequest(`/api/verifications/${publicId}/crop`, { method: "DELETE", cookie }), params(publicId));
    expect((await put(looker.cookie)).status).toBe(403);
    expect((await del(looker.cookie)).status).toBe(403);
    const cropper = await holding(["verifications.read", "media.read", "verifications.crop"]);
    expect((await put(cropper.cookie)).status).toBe(200);
    expect((await del(cropper.cookie)).status).toBe(200);
  });

  it("a re-verification needs verifications.reverify: the assignee with case work alone is refused (403)", async () => {
    const publicId = await openCase();
    const worker = await holding(["verifications.read", "cases.read", "cases.work"]);
    expect((await assign(post(`/cases/${publicId}/assignment`, worker.cookie, { assignee: "me" }), params(publicId))).status).toBe(200);
    const refused = await reverify(post(`/cases/${publicId}/reverification`, worker.cookie, {}), params(publicId));
    expect(refused.status).toBe(403);
    // The analyst holds it: past the door (the closed upstream then answers, never 403).
    const analyst = await createTestStaff(handle.db, { role: "analyst" });
    const analystCookie = await sessionCookieFor(handle.db, analyst);
    const other = await openCase();
    expect((await assign(post(`/cases/${other}/assignment`, analystCookie, { assignee: "me" }), params(other))).status).toBe(200);
    expect((await reverify(post(`/cases/${other}/reverification`, analystCookie, {}), params(other))).status).not.toBe(403);
  });
});
