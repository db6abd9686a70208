/*
 * Facts about a person that change after their verification: a person approved in March may be a PEP, on a
 * restrictive list or deceased by October. `POST /sandbox/people/{cpf}/facts` sets them by CPF; from then on the CPF
 * history (`outros_campos.pep`, `outros_campos.obito`), the federal revenue record (`ConstaObito`) and every core
 * verification of that CPF (`pep`, `pep_origin`, `restrictive_lists`) answer the new facts. In memory: a restart
 * forgets them, like the rest of the sandbox's state.
 */
import type { Person, RestrictiveListHit } from "./fixtures/people";

export interface FactsChange {
  pep?: boolean;
  pepOrigin?: string | null;
  restrictiveLists?: RestrictiveListHit[];
  deceased?: boolean;
}

export class PersonFacts {
  private readonly changes = new Map<string, FactsChange>();

  /** Adds `change` to what was set before for this CPF (11 digits). */
  set(cpf: string, change: FactsChange): void {
    this.changes.set(cpf, { ...this.changes.get(cpf), ...change });
  }

  /** The person as the service answers today: the fixture with the facts set since. */
  of(person: Person): Person {
    const change = this.changes.get(person.cpf);
    if (!change) return person;
    const pep = change.pep ?? person.pep;
    const deceased = change.deceased ?? person.deceased;
    return {
      ...person,
      pep,
      pepOrigin: pep ? (change.pepOrigin !== undefined ? change.pepOrigin : (person.pepOrigin ?? "Sandbox")) : null,
      restrictiveLists: change.restrictiveLists ?? person.restrictiveLists,
      deceased,
      deathYear: deceased ? person.deathYear || new Date().getUTCFullYear() : 0,
    };
  }
}

const FIELDS = ["pep", "pep_origin", "restrictive_lists", "deceased"];

/** The control body read into a change, or a message naming the bad field. */
export function parseFactsChange(body: Record<string, unknown>, today: string): FactsChange | string {
  const unknown = Object.keys(body).filter((key) => !FIELDS.includes(key));
  if (unknown.length > 0) return `Unknown field(s): ${unknown.join(", ")}.`;
  if (Object.keys(body).length === 0) return `Send at least one of ${FIELDS.join(", ")}.`;
  const change: FactsChange = {};
  if (body.pep !== undefined) {
    if (typeof body.pep !== "boolean") return "pep must be true or false.";
    change.pep = body.pep;
  }
  if (body.pep_origin !== undefined) {
    if (body.pep_origin !== null && (typeof body.pep_origin !== "string" || body.pep_origin.trim() === ""))
      return "pep_origin must be a non-empty string or null.";
    change.pepOrigin = body.pep_origin as string | null;
  }
  if (body.deceased !== undefined) {
    if (typeof body.deceased !== "boolean") return "deceased must be true or false.";
    change.deceased = body.deceased;
  }
  if (body.restrictive_lists !== undefined) {
    const lists = body.restrictive_lists;
    const isName = (value: unknown) => typeof value === "string" && value.trim() !== "" && value.length <= 100;
    if (!Array.isArray(lists) || !lists.every(isName) || lists.length > 20)
      return "restrictive_lists must be an array of up to 20 list names (non-empty strings).";
    change.restrictiveLists = [...new Set(lists as string[])].map((name) => ({ name, source: "sandbox", listed_at: today }));
  }
  return change;
}
