import "server-only";

import { sql, type SQL } from "drizzle-orm";

import { disagrees, EFFECTIVE_STATES, FOUR_EYES, FOUR_EYES_FLAGS, RECOMMENDATIONS, type Recommendation } from "@/lib/cases/rules";
import { cases } from "@/lib/cases/server/tables";

/*
 * The rules of lib/cases/rules.ts as SQL on a case's row, for the conditional statements that apply them (an
 * outcome's state, a closing's disagreement, the queues). Each is built from the same table or function the
 * TypeScript reads, so a rule changes in one place; rule-conditions.test.ts runs both forms over every
 * combination of recommendation, flags, outcome state and status.
 */

// The rules' own words (recommendations, states, flags) as SQL literals: the statements read as before, with no
// parameter for a constant. Only lower-case words are taken, so nothing here can be quoted wrongly.
export function literals(values: readonly string[]): SQL {
  for (const value of values) if (!/^[a-z_]+$/.test(value)) throw new Error(`Not a rule's word: ${value}`);
  return sql.raw(values.map((value) => `'${value}'`).join(", "));
}

/** `needsConfirmation` on the row's own flags, for the recommendation being recorded (FOUR_EYES). */
export function needsConfirmationSql(recommendation: Recommendation): SQL {
  const rule = FOUR_EYES[recommendation];
  if (rule === "on_flags") return sql`(${cases.flags} && array[${literals(FOUR_EYES_FLAGS)}]::text[])`;
  return rule === "always" ? sql`true` : sql`false`;
}

// The stages of `stageOf`: a recommendation is effective when confirmed, or recorded without needing confirmation.
export const EFFECTIVE = sql`coalesce(${cases.outcomeState} in (${literals(EFFECTIVE_STATES)}), false)`;
export const ESCALATED = sql`(${EFFECTIVE} and ${cases.recommendation} = 'escalate')`;
export const DECIDED = sql`(${EFFECTIVE} and ${cases.recommendation} in (${literals(RECOMMENDATIONS.filter((item) => item !== "escalate"))}))`;

/**
 * `disagrees` for a case closing on this final status: the recommendations that contradict it are found by
 * `disagrees` itself, and the row is asked only whether its recommendation is effective and one of them.
 */
export function disagreesSql(finalStatus: string): SQL {
  const contradicting = RECOMMENDATIONS.filter((recommendation) => disagrees(recommendation, true, finalStatus));
  if (contradicting.length === 0) return sql`false`;
  return sql`(${EFFECTIVE} and coalesce(${cases.recommendation} in (${literals(contradicting)}), false))`;
}
