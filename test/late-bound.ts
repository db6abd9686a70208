/**
 * A stand-in for an object a beforeAll hook makes: each property read goes to what `current()` answers then, so the
 * suite can name it at declaration time. Reading it before the hook ran (or after a failed one) throws, naming `what`.
 */
export function lateBound<T extends object>(current: () => T | undefined, what: string): T {
  const ready = (): T => {
    const value = current();
    if (value === undefined) throw new Error(`${what} is not ready: its beforeAll has not run`);
    return value;
  };
  // Spreading it, `in` and Object.keys see the object itself too.
  return new Proxy({} as T, {
    get(_target, key) {
      const value = ready();
      const property: unknown = Reflect.get(value, key);
      return typeof property === "function" ? property.bind(value) : property;
    },
    has: (_target, key) => Reflect.has(ready(), key),
    ownKeys: () => Reflect.ownKeys(ready()),
    getOwnPropertyDescriptor(_target, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(ready(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
