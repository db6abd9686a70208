import "server-only";

import { PERMISSION_GROUPS, type Permission } from "@/lib/auth/permissions";
import type { Locale } from "@/lib/i18n/locales";
import type { PermissionCatalogue } from "@/lib/roles/types";
import en from "@/messages/en/roles.json";
import ptBR from "@/messages/pt-BR/roles.json";

// GET /api/permissions: the catalogue with each permission's label and explanation in the caller's language
// (the same messages the role editor shows).

type Messages = typeof en;
const MESSAGES: Record<Locale, Messages> = { en, "pt-BR": ptBR };

function entry(messages: Messages, name: Permission) {
  const [resource, action] = name.split(".") as [string, string];
  const text = (messages.permissions as Record<string, Record<string, { label: string; description: string }>>)[resource]?.[action];
  return { name, label: text?.label ?? name, description: text?.description ?? "" };
}

export function permissionCatalogue(locale: Locale): PermissionCatalogue {
  const messages = MESSAGES[locale];
  return {
    groups: PERMISSION_GROUPS.map((group) => ({
      resource: group.resource,
      label: (messages.groups as Record<string, string>)[group.resource] ?? group.resource,
      permissions: group.permissions.map((name) => entry(messages, name)),
    })),
  };
}
