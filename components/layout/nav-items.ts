import type { Permission } from "@/lib/auth/permissions";

// What the navigation offers, and the permission each entry needs: a member sees only what they may use
// (the pages and handlers still check for themselves).

export const NAV_ITEMS: ReadonlyArray<{ href: string; key: string; match?: string; permission: Permission | "admin" }> = [
  { href: "/", key: "overview", permission: "verifications.read" },
  { href: "/verifications", key: "verifications", permission: "verifications.read" },
  { href: "/cases", key: "cases", permission: "cases.read" },
  { href: "/analytics", key: "analytics", permission: "analytics.read" },
  { href: "/lookups/cpf", key: "lookups", match: "/lookups", permission: "lookups.run" },
  { href: "/kyc", key: "kyc", permission: "kyc.start" },
  // Suspicious-activity reports: only their holders learn the page exists (no tipping off).
  { href: "/compliance/coaf", key: "coaf", match: "/compliance", permission: "coaf.report" },
  // Shown when any admin section is.
  { href: "/admin", key: "admin", permission: "admin" },
];

export const ADMIN_SECTIONS: ReadonlyArray<{ href: string; key: string; permission: Permission }> = [
  { href: "/admin/staff", key: "staff", permission: "staff.manage" },
  { href: "/admin/roles", key: "roles", permission: "roles.manage" },
  { href: "/admin/cases", key: "cases", permission: "cases.assign" },
  { href: "/admin/connections", key: "connections", permission: "integrations.manage" },
  { href: "/admin/integrations", key: "integrations", permission: "integrations.manage" },
  { href: "/admin/audit", key: "audit", permission: "audit.read" },
  { href: "/admin/privacy", key: "privacy", permission: "privacy.report" },
];

/** The entries a member holding `permissions` may use. */
export function navItemsFor(permissions: readonly Permission[]): typeof NAV_ITEMS {
  const held = new Set(permissions);
  const admin = ADMIN_SECTIONS.some((section) => held.has(section.permission));
  return NAV_ITEMS.filter((item) => (item.permission === "admin" ? admin : held.has(item.permission)));
}
