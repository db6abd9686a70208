export function staleBuild(distDir: string): string | undefined;
export function ensureProductionBuild(options?: { distDir?: string; log?: (message: string) => void }): void;
export function newestMtime(entry: string): number;
