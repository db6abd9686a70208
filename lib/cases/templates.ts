import { REASONS_BY_RECOMMENDATION, type ReasonCode, type Recommendation } from "@/lib/cases/rules";

/*
 * Decision templates (issue 32), the rules shared by the decision form, the management dialogs and the server: a
 * template is a reason set plus a comment whose placeholders (`{verification_date}`…) are filled from the case and
 * its verification when the analyst applies it. Pure: no server imports.
 */

export const TEMPLATE_SCOPES = ["team", "personal"] as const;
type TemplateScope = (typeof TEMPLATE_SCOPES)[number];

export const TEMPLATE_NAME_MAX_CHARS = 80;
/** Live templates a member may hold of their own, and the team may hold (each kind counted together). */
export const MAX_TEMPLATES_PER_OWNER = 100;

/** The placeholders a comment may hold, each filled from what the case page knows. */
export const TEMPLATE_PLACEHOLDERS = ["verification_date", "failing_step", "ref_id", "flow", "public_id"] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

export interface CaseTemplate {
  id: string;
  kind: Recommendation;
  scope: TemplateScope;
  name: string;
  reasons: ReasonCode[];
  comment: string;
  /** The member's own (personal), or the team's; `editable` says whether the caller may change it. */
  editable: boolean;
  updatedAt: string;
}

export interface CaseTemplateList {
  templates: CaseTemplate[];
}

/** What the case page knows to fill placeholders with; a value it does not know stays as its placeholder. */
export type TemplateFacts = Partial<Record<TemplatePlaceholder, string | null>>;

const PLACEHOLDER = /\{([a-z_][a-z0-9_]*)\}/gi;

/** Every `{name}` in a text, in order of first appearance. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1]!))];
}

/** The placeholders of a text that are not in TEMPLATE_PLACEHOLDERS (refused at save, named). */
export function unknownPlaceholders(text: string): string[] {
  return placeholdersIn(text).filter((name) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name));
}

/**
 * The comment with each known placeholder replaced by its fact; `missing` names those the page does not know,
 * which stay in the text as written, so the analyst sees what is left to fill.
 */
export function resolveTemplate(text: string, facts: TemplateFacts): { text: string; missing: TemplatePlaceholder[] } {
  const missing = new Set<TemplatePlaceholder>();
  const resolved = text.replace(PLACEHOLDER, (whole, name: string) => {
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)) return whole;
    const value = facts[name as TemplatePlaceholder];
    if (value === undefined || value === null || value === "") {
      missing.add(name as TemplatePlaceholder);
      return whole;
    }
    return value;
  });
  return { text: resolved, missing: [...missing] };
}

/**
 * A CPF, punctuated or not (11 digits as 3.3.3-2), masked ones included: templates hold no personal data by rule,
 * and a CPF typed into one would be copied into every case it is applied to.
 */
const CPF_LIKE = /(?<![\d*])[\d*]{3}[.\s]?[\d*]{3}[.\s]?[\d*]{3}[-\s]?[\d*]{2}(?![\d*])/;

export function holdsCpf(text: string): boolean {
  return [...text.matchAll(new RegExp(CPF_LIKE, "g"))].some((match) => /\d/.test(match[0]));
}

/** The reasons of a set that its kind may not cite. */
export function reasonsNotForKind(kind: Recommendation, reasons: readonly string[]): string[] {
  const allowed: readonly string[] = REASONS_BY_RECOMMENDATION[kind];
  return reasons.filter((reason) => !allowed.includes(reason));
}

/**
 * The templates that match what the analyst typed: by number (`2`: the second of the list) or by a prefix of the
 * name, whatever its case.
 */
export function matchTemplates<T extends { name: string }>(templates: readonly T[], typed: string): T[] {
  const query = typed.trim().toLocaleLowerCase();
  if (query === "") return [...templates];
  if (/^[1-9]$/.test(query)) {
    const byNumber = templates[Number(query) - 1];
    return byNumber ? [byNumber] : [];
  }
  return templates.filter((template) => template.name.toLocaleLowerCase().startsWith(query));
}
