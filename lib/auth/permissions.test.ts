import { describe, expect, it } from "vitest";

import {
  BUILT_IN_PERMISSIONS,
  BUILT_IN_ROLES,
  hasPermission,
  parseRoleInput,
  PERMISSIONS,
  permissionsNotHeld,
  resolvePermissions,
  secondFactorRequired,
} from "./permissions";

describe("built-in roles", () => {
  it("keep what analysts and admins could do before permissions: an admin everything, an analyst not the admin work", () => {
    expect([...BUILT_IN_PERMISSIONS.admin].sort()).toEqual([...PERMISSIONS].sort());
    const analyst = { permissions: BUILT_IN_PERMISSIONS.analyst };
    // Analysts saw whatever the key returned, images included, and confirmed one another's outcomes.
    for (const held of [
      "verifications.read",
      "verifications.create",
      "verifications.export",
      // Drawing the portrait crop and asking for a re-verification: their own permissions now, still the analyst's.
      "verifications.crop",
      "verifications.reverify",
      "media.read",
      "personal_data.unmasked",
      "cases.work",
      "cases.confirm",
      "lookups.run",
      "kyc.start",
      "sms.send",
    ] as const) {
      expect(hasPermission(analyst, held), held).toBe(true);
    }
    // Assigning others, the case sync, keys, staff, roles and the audit log were the admin's.
    for (const missing of ["cases.assign", "integrations.manage", "staff.manage", "roles.manage", "audit.read", "audit.export"] as const) {
      expect(hasPermission(analyst, missing), missing).toBe(false);
    }
  });

  it("give reviewers the portrait crop but not re-verification, which creates a verification upstream", () => {
    expect(BUILT_IN_PERMISSIONS.reviewer).toContain("verifications.crop");
    expect(BUILT_IN_PERMISSIONS.reviewer).not.toContain("verifications.reverify");
    expect(permissionsNotHeld({ permissions: BUILT_IN_PERMISSIONS.reviewer }, ["cases.read", "verifications.reverify", "nope"])).toEqual([
      "verifications.reverify",
    ]);
  });

  it("give viewers and auditors neither images nor unmasked data, and auditors the audit log", () => {
    for (const role of ["viewer", "auditor"] as const) {
      expect(BUILT_IN_PERMISSIONS[role]).not.toContain("media.read");
      expect(BUILT_IN_PERMISSIONS[role]).not.toContain("personal_data.unmasked");
    }
    expect(BUILT_IN_PERMISSIONS.auditor).toEqual(expect.arrayContaining(["audit.read", "audit.export", "privacy.report"]));
    expect(BUILT_IN_PERMISSIONS.reviewer).toEqual(expect.arrayContaining(["cases.confirm", "cases.assign"]));
  });

  it("give the team's numbers to those who run the team (reviewers and admins), not to analysts, viewers or auditors", () => {
    for (const role of BUILT_IN_ROLES) {
      expect(BUILT_IN_PERMISSIONS[role].includes("analytics.read"), role).toBe(role === "reviewer" || role === "admin");
    }
  });

  it("give erasure to admins only (the auditor changes nothing), as a privileged permission", () => {
    for (const role of BUILT_IN_ROLES) expect(BUILT_IN_PERMISSIONS[role].includes("privacy.erase"), role).toBe(role === "admin");
    expect(secondFactorRequired("privileged", { permissions: ["privacy.erase"] })).toBe(true);
  });

  it("give COAF reports to admins only, as a privileged permission (the person must never learn of one)", () => {
    for (const role of BUILT_IN_ROLES) expect(BUILT_IN_PERMISSIONS[role].includes("coaf.report"), role).toBe(role === "admin");
    expect(secondFactorRequired("privileged", { permissions: ["coaf.report"] })).toBe(true);
  });

  it("give titular requests to admins only: the auditor, who builds reports, registers and closes nothing", () => {
    for (const role of BUILT_IN_ROLES) expect(BUILT_IN_PERMISSIONS[role].includes("privacy.requests"), role).toBe(role === "admin");
  });

  it("make CPF lookups privileged: a member who may run them needs a second factor", () => {
    expect(secondFactorRequired("privileged", { permissions: ["lookups.run"] })).toBe(true);
    expect(secondFactorRequired("privileged", { permissions: ["verifications.read", "cases.read"] })).toBe(false);
  });
});

describe("resolvePermissions", () => {
  it("reads a custom role's stored names, dropping unknown ones, and gives a retired or missing role nothing", () => {
    expect(resolvePermissions("custom", { permissions: ["cases.read", "gone.permission"], retiredAt: null })).toEqual(["cases.read"]);
    expect(resolvePermissions("custom", { permissions: ["cases.read"], retiredAt: new Date() })).toEqual([]);
    expect(resolvePermissions("custom", null)).toEqual([]);
    expect(resolvePermissions("viewer", null)).toEqual([...BUILT_IN_PERMISSIONS.viewer]);
  });
});

describe("parseRoleInput", () => {
  it("trims the name, orders and dedupes the permissions, and names the field of each problem", () => {
    expect(parseRoleInput({ name: "  Night   shift ", permissions: ["cases.read", "verifications.read", "cases.read"] })).toEqual({
      ok: true,
      value: { name: "Night shift", permissions: ["verifications.read", "cases.read"] },
    });
    const bad = parseRoleInput({ name: "admin", permissions: ["x.y"] });
    expect(bad.ok ? [] : bad.problems.map((problem) => problem.field)).toEqual(["name", "permissions"]);
    expect(parseRoleInput({}, { partial: true })).toMatchObject({ ok: false, problems: [{ field: "(input)" }] });
    expect(parseRoleInput({ permissions: [] }, { partial: true })).toEqual({ ok: true, value: { permissions: [] } });
  });
});
