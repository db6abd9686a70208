import "server-only";

import type { Database } from "@/lib/db/client";

import { membersHolding, type Member } from "./notify";

/*
 * Mentions in a case note: `@email` names a member exactly; `@name` names the member whose name (spaces
 * left out, or its first word) or whose email's local part it is, when exactly one member answers to it.
 * Only members who can read cases are told, never the note's author; the note's text stays in the case.
 */

// "@" not inside a word or an email address, then a name or an email.
const MENTION = /(?<![\p{L}\p{N}._%+-])@([\p{L}\p{N}._%+-]+(?:@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)?)/gu;

/** The mentions of a text, lower-cased, without trailing punctuation, once each. */
export function mentionTokens(text: string): string[] {
  const tokens = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const token = match[1]!.replace(/[._%+-]+$/u, "").toLowerCase();
    if (token) tokens.add(token);
  }
  return [...tokens];
}

function handlesOf(member: Member): string[] {
  const name = member.name.trim().toLowerCase();
  const local = member.email.toLowerCase().split("@")[0] ?? "";
  return [...new Set([name.replace(/\s+/g, ""), name.split(/\s+/)[0] ?? "", local].filter(Boolean))];
}

/** Pure: which of the members the tokens name (an ambiguous handle names nobody). */
export function resolveMentions(tokens: readonly string[], members: readonly Member[]): string[] {
  const found = new Set<string>();
  for (const token of tokens) {
    if (token.includes("@")) {
      for (const member of members) if (member.email.toLowerCase() === token) found.add(member.id);
      continue;
    }
    const named = members.filter((member) => handlesOf(member).includes(token));
    if (named.length === 1) found.add(named[0]!.id);
  }
  return [...found];
}

/** The members a note mentions who can read cases, its author left out. */
export async function mentionedMembers(db: Database, text: string, authorId: string): Promise<string[]> {
  const tokens = mentionTokens(text);
  if (tokens.length === 0) return [];
  return resolveMentions(tokens, await membersHolding(db, "cases.read")).filter((id) => id !== authorId);
}
