import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

/*
 * No key lost to loading (lib/shared/early-keys.ts): pages are drawn on the server, so an analyst reads rows and presses
 * a shortcut before the code that answers it runs. The shell's inline recorder keeps such keys; the code that answers
 * them must claim them when it starts. This guard reads every module of the app that listens for keydown and fails
 * on one that neither claims early keys nor answers only named keys (Escape, Enter…), which the recorder does not
 * keep. A new listener is covered without editing this file.
 */

const root = path.resolve(import.meta.dirname, "../..");
const FOLDERS = ["app", "components", "lib"];
const LISTENS = /addEventListener\(\s*"keydown"/;
const CLAIMS = /\bapplyEarlyKeys\(/;
/** The keys a module compares `.key` against. */
const COMPARED_KEY = /\.key\s*[!=]==?\s*"([^"]*)"/g;

function sources(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

const listeners = FOLDERS.flatMap(sources)
  .map((file) => ({ file, source: readFileSync(path.join(root, file), "utf8") }))
  .filter(({ source }) => LISTENS.test(source));

describe("keys pressed before their listener runs", () => {
  it("finds the app's keydown listeners (the guard reads what it means to)", () => {
    expect(listeners.map(({ file }) => file)).toEqual(
      expect.arrayContaining(["components/cases/use-queue-keyboard.ts", "components/cases/use-case-shortcuts.ts"]),
    );
  });

  it.each(listeners.map(({ file, source }) => [file, source] as const))(
    "%s claims the early keys it answers, or answers only named keys",
    (file, source) => {
      if (CLAIMS.test(source)) return;
      const printable = [...source.matchAll(COMPARED_KEY)].map((match) => match[1]!).filter((key) => key.length === 1);
      expect(printable, `${file} answers printable keys without applyEarlyKeys`).toEqual([]);
      // A listener that reads keys some other way (a map, a regular expression) cannot be told apart here: it claims.
      expect(source.match(COMPARED_KEY), `${file} compares no key by name: it must claim its early keys`).not.toBeNull();
    },
  );
});
