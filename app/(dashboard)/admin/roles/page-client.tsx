"use client";

import { RolesManager } from "@/components/roles/roles-manager";

// /admin/roles: every role with its permissions; custom ones are created, edited and retired here.
export function RolesPageClient() {
  return <RolesManager />;
}
