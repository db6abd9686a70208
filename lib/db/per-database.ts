import "server-only";

import type { DatabaseHandle } from "@/lib/db/client";

/**
 * One of what `make` builds per database handle: built on the handle's first use, let go with the handle. For state
 * that follows one database (a cache fed by its change feed), so a second handle, as in tests, gets its own.
 */
export function perDatabase<T>(make: (handle: DatabaseHandle) => T): (handle: DatabaseHandle) => T {
  const made = new WeakMap<DatabaseHandle, T>();
  return (handle) => {
    if (!made.has(handle)) made.set(handle, make(handle));
    return made.get(handle)!;
  };
}
