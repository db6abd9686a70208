// Which Chromium the browser tests drive: PLAYWRIGHT_CHROMIUM_PATH, else Debian's /usr/bin/chromium,
// else Playwright's own download (absent on machines without internet access).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function findChromium() {
  const candidates = [process.env.PLAYWRIGHT_CHROMIUM_PATH, "/usr/bin/chromium"];
  try {
    candidates.push(require("playwright-core").chromium.executablePath());
  } catch {
    // playwright-core not resolvable or no bundled browser recorded: fine, other candidates remain.
  }
  return candidates.find((candidate) => candidate && fs.existsSync(candidate));
}

/**
 * Finds a browser or installs Debian's chromium when running as root with apt; otherwise explains how
 * to get one. Returns the executable path or exits the process with status 1.
 */
export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status === 0;
  if (isRoot && hasApt) {
    console.log("No Chromium found: installing Debian's chromium package (apt-get)…");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update"], { stdio: "inherit", env });
    const install =
      update.status === 0
        ? spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], { stdio: "inherit", env })
        : update;
    const installed = findChromium();
    if (install.status === 0 && installed) return installed;
    console.error("Installing chromium with apt-get failed (see above).");
  }
  console.error(
    [
      "The browser tests need Chromium and none was found.",
      "Get one of these, then run `npm test` again:",
      "  - Debian/Ubuntu: sudo apt-get install chromium      (found at /usr/bin/chromium)",
      "  - any system:    npx playwright install chromium     (needs internet access)",
      "  - or point PLAYWRIGHT_CHROMIUM_PATH at a Chromium or Chrome executable.",
    ].join("\n"),
  );
  process.exit(1);
}
