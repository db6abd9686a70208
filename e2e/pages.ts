import fs from "node:fs";
import path from "node:path";

/*
 * The app's pages as the guards that walk all of them see them: read from the page files, so a new page is covered
 * by every such guard without editing it.
 */

export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** The signed-in app's pages, from the page files under app/(dashboard): `[segment]` stands for a dynamic segment. */
export function signedInPages(): string[] {
  const root = path.resolve("app/(dashboard)");
  return filesUnder(root)
    .filter((file) => path.basename(file) === "page.tsx")
    .map((file) => {
      const segments = path.relative(root, path.dirname(file)).split(path.sep).filter(Boolean);
      return `/${segments.filter((segment) => !/^\(.*\)$/.test(segment)).join("/")}`;
    })
    .sort();
}
