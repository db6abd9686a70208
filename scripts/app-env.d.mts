export function documentedVariables(): string[];
export function blankAppEnv(): Record<string, string>;
