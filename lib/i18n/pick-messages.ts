type Tree = { [key: string]: unknown };

/**
 * The part of `messages` under each dotted path ("verifications", "cases.flags"), nested as in the
 * catalogue. A path inside another one given is already covered. An unknown path is an error: it is a
 * typo that would otherwise show up only as a missing message in the browser.
 */
export function pickMessages(messages: Tree, paths: readonly string[]): Tree {
  const covered = (path: string) => paths.some((other) => path.startsWith(`${other}.`));
  const picked: Tree = {};
  for (const path of new Set(paths)) {
    if (covered(path)) continue;
    const keys = path.split(".");
    let source: unknown = messages;
    for (const key of keys) source = typeof source === "object" && source !== null ? (source as Tree)[key] : undefined;
    if (source === undefined) throw new Error(`no message catalogue path "${path}"`);
    // Fresh objects on the way down: no path above this one was picked whole, so the catalogue's own are
    // never written to.
    let target = picked;
    for (const key of keys.slice(0, -1)) target = (target[key] ??= {}) as Tree;
    target[keys.at(-1)!] = source;
  }
  return picked;
}
