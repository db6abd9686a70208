/* Fault injection rules (POST /sandbox/faults, SANDBOX_*_RATE): one per path prefix, the longest match wins. */
import type { FaultRule } from "./config";

export class Faults {
  private rules = new Map<string, FaultRule>();
  set(rule: FaultRule): void {
    this.rules.set(rule.path_prefix, rule);
  }
  clear(): void {
    this.rules.clear();
  }
  all(): FaultRule[] {
    return [...this.rules.values()];
  }
  /** The rule with the longest prefix of `path`. */
  match(path: string): FaultRule | null {
    let best: FaultRule | null = null;
    for (const rule of this.rules.values()) {
      if (path.startsWith(rule.path_prefix) && (!best || rule.path_prefix.length > best.path_prefix.length)) best = rule;
    }
    return best;
  }
}
