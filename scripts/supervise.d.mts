import type { EventEmitter } from "node:events";

export interface SupervisedChild extends EventEmitter {
  exitCode: number | null;
}

export interface SupervisorOptions {
  log?: (line: string) => void;
  delayMs?: number;
  maxRestarts?: number;
  windowMs?: number;
  now?: () => number;
  schedule?: (run: () => void, ms: number) => unknown;
  cancel?: (timer: unknown) => void;
  onAllStopped?: () => void;
}

export interface Supervisor {
  add<C extends SupervisedChild>(name: string, start: () => C): C;
  children(): SupervisedChild[];
  stop(): SupervisedChild[];
}

export function createSupervisor(options?: SupervisorOptions): Supervisor;
