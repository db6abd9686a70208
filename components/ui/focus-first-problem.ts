/**
 * A form's check on submit: gives the focus to the first field, in the order given (input id → its problem), that
 * has a problem, so the person lands on what to fix (an id is never a bare number, so the object keeps the order).
 * True when one had a problem: the form stops there.
 */
export function focusFirstProblem(problems: Record<string, unknown>): boolean {
  const first = Object.entries(problems).find(([, problem]) => problem);
  if (first) document.getElementById(first[0])?.focus();
  return first !== undefined;
}
