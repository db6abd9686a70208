import "server-only";

import { and, asc, count, eq, inArray } from "drizzle-orm";

import { hasPermission, type StaffSession } from "@/lib/auth/server/require-role";
import { pgErrorCode } from "@/lib/auth/server/staff-store";
import type { Database } from "@/lib/db/client";
import { AppError } from "@/lib/shared/errors";
import type { SavedView } from "@/lib/views/types";
import { VIEW_SCOPES, type SaveViewInput, type ViewScope } from "@/lib/views/validation";

import { savedViews } from "./tables";

/*
 * Saved views ("favourite inboxes"): a member's named query strings of the verification list or the case
 * queue, listed in their navigation. Each member sees and deletes only their own; a scope counts only while
 * the member may read its page (cases.read, verifications.read), so a view of a page they lost stays hidden.
 * Not on the audit trail: a view holds filters, no personal data, and opening it is the audited list read. A view
 * belongs to the connection it was saved under (issue 33): listed, and deleted, under that connection only.
 */

export const MAX_VIEWS_PER_MEMBER = 50;

const SCOPE_PERMISSIONS = { cases: "cases.read", verifications: "verifications.read" } as const;

function readableScopes(user: StaffSession): ViewScope[] {
  return VIEW_SCOPES.filter((scope) => hasPermission(user, SCOPE_PERMISSIONS[scope]));
}

function toDto(row: typeof savedViews.$inferSelect): SavedView {
  return { id: row.id, scope: row.scope, name: row.name, query: row.query, createdAt: row.createdAt.toISOString() };
}

export async function listViews(db: Database, user: StaffSession, connectionId: string): Promise<SavedView[]> {
  const scopes = readableScopes(user);
  if (scopes.length === 0) return [];
  const rows = await db
    .select()
    .from(savedViews)
    .where(and(eq(savedViews.userId, user.id), eq(savedViews.connectionId, connectionId), inArray(savedViews.scope, scopes)))
    .orderBy(asc(savedViews.scope), asc(savedViews.name));
  return rows.map(toDto);
}

/** Saves a view; 403 for a page the member may not read, 409 naming `name` when they already have one so named. */
export async function createView(db: Database, user: StaffSession, connectionId: string, input: SaveViewInput): Promise<SavedView> {
  if (!hasPermission(user, SCOPE_PERMISSIONS[input.scope])) {
    throw new AppError("forbidden", `Saving a view of this page needs the ${SCOPE_PERMISSIONS[input.scope]} permission.`);
  }
  const [held] = await db.select({ value: count() }).from(savedViews).where(eq(savedViews.userId, user.id));
  if ((held?.value ?? 0) >= MAX_VIEWS_PER_MEMBER) {
    throw new AppError("conflict", `You already have ${MAX_VIEWS_PER_MEMBER} saved views: delete one first.`);
  }
  try {
    const [row] = await db
      .insert(savedViews)
      .values({ userId: user.id, connectionId, ...input })
      .returning();
    return toDto(row!);
  } catch (error) {
    // The unique index on (member, connection, scope, lower(name)): two saves at once under one name, one wins.
    if (pgErrorCode(error) === "23505") throw new AppError("conflict", "You already have a view with this name.", { fields: ["name"] });
    throw error;
  }
}

/** Deletes one of the member's own views; anyone else's (or none) is 404. */
export async function deleteView(db: Database, user: StaffSession, connectionId: string, id: string): Promise<void> {
  const gone = await db
    .delete(savedViews)
    .where(and(eq(savedViews.id, id), eq(savedViews.userId, user.id), eq(savedViews.connectionId, connectionId)))
    .returning({ id: savedViews.id });
  if (gone.length === 0) throw new AppError("not_found", "No saved view of yours has this id.");
}
