/*
 * Hands a CPF from the top bar's search to the lookup page without putting it in a URL, a query key or the
 * history (a CPF never travels in a dashboard address): kept in this tab's memory only, for one client-side
 * navigation, and read once. A reload or a new tab starts empty.
 */

const TTL_MS = 60_000;
let handed: { cpf: string; at: number } | null = null;

export function handCpfToLookup(cpf: string): void {
  handed = { cpf, at: Date.now() };
}

/** The CPF handed over in the last minute, if any; it stays until `clearHandedCpf` (React may render twice). */
export function handedCpf(): string | null {
  return handed && Date.now() - handed.at < TTL_MS ? handed.cpf : null;
}

export function clearHandedCpf(): void {
  handed = null;
}
