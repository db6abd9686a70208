export const DEFAULT_HOST: string;
export function listenHost(env?: Record<string, string | undefined>): string;
export function isWildcard(host: string): boolean;
export function isLoopback(host: string): boolean;
export function connectHost(host: string): string;
export function nextArgs(mode: "dev" | "demo", port: string | number, host: string): string[];
