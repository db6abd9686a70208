// The supervision of `npm run dev` / `npm run demo` (scripts/run.mjs): the sandbox and the dashboard run side by
// side, and one that dies does not take the other with it.
//
// A child that exits on its own (a crash, an out-of-memory abort) is started again after a delay that doubles with
// each exit inside the window, while the others keep running; the log says which one, how it ended, and that the
// others still run. One that keeps dying (more than `maxRestarts` exits within `windowMs`) is left stopped, the others
// still running, and the log says so; when none is left, `onAllStopped` runs. After `stop()` no exit is a crash.

/**
 * @param {{
 *   log?: (line: string) => void,
 *   delayMs?: number,
 *   maxRestarts?: number,
 *   windowMs?: number,
 *   now?: () => number,
 *   schedule?: (run: () => void, ms: number) => unknown,
 *   cancel?: (timer: unknown) => void,
 *   onAllStopped?: () => void,
 * }} [options]
 */
export function createSupervisor({
  log = (line) => console.error(line),
  delayMs = 1000,
  maxRestarts = 5,
  windowMs = 60_000,
  now = Date.now,
  schedule = setTimeout,
  cancel = clearTimeout,
  onAllStopped = () => undefined,
} = {}) {
  /** @type {Map<string, { start: () => any, child: any, exits: number[], gaveUp: boolean, timer: unknown }>} */
  const services = new Map();
  let stopping = false;

  function launch(name) {
    const service = services.get(name);
    const child = service.start();
    service.child = child;
    child.once("exit", (code, signal) => exited(name, child, code, signal));
    return child;
  }

  function exited(name, child, code, signal) {
    const service = services.get(name);
    if (stopping || service.child !== child) return;
    service.child = null;
    const at = now();
    service.exits = [...service.exits.filter((time) => at - time < windowMs), at];
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const others = [...services].filter(([other, state]) => other !== name && !state.gaveUp).map(([other]) => other);
    const still = others.length ? `; ${others.join(" and ")} ${others.length === 1 ? "keeps" : "keep"} running` : "";
    if (service.exits.length > maxRestarts) {
      service.gaveUp = true;
      log(`[${name}] exited (${how}), ${service.exits.length} times within ${windowMs / 1000} s: not starting it again${still}`);
      if (!others.length) onAllStopped();
      return;
    }
    const wait = delayMs * 2 ** (service.exits.length - 1);
    log(`[${name}] exited (${how}); starting it again in ${wait / 1000} s${still}`);
    service.timer = schedule(() => {
      service.timer = null;
      if (!stopping) launch(name);
    }, wait);
  }

  return {
    /** Starts `name` with `start()` (which spawns and answers the child) and keeps it running; answers the child. */
    add(name, start) {
      services.set(name, { start, child: null, exits: [], gaveUp: false, timer: null });
      return launch(name);
    },
    /** The children running now. */
    children() {
      return [...services.values()].map((service) => service.child).filter(Boolean);
    },
    /** From now on exits are expected: nothing is started again. Answers the children still running. */
    stop() {
      stopping = true;
      for (const service of services.values()) if (service.timer !== null) cancel(service.timer);
      return this.children();
    },
  };
}
