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

const has = (command) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
const canApt = () => typeof process.getuid === "function" && process.getuid() === 0 && has("apt-get");

/** Debian's packages, installed with apt-get (as root): true when they are. */
function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update"], { stdio: "inherit", env });
  if (update.status !== 0) return false;
  return spawnSync("apt-get", ["install", "-y", "--no-install-recommends", ...packages], { stdio: "inherit", env }).status === 0;
}

/*
 * The browser tests measure layouts (rows above the fold, a one-line header on a phone) as the members' browsers draw
 * them: in Arial's metrics, which Windows and macOS have and which Linux gets from Liberation Sans (Debian's
 * fonts-liberation, a recommendation of its chromium package). Without it Chromium draws the same pages in DejaVu Sans,
 * wider, and those measures fail on the machine, not on the pages. Only where fontconfig answers (Linux).
 */
function hasArialMetrics() {
  if (!has("fc-list")) return true;
  const fonts = spawnSync("fc-list", [":family=Liberation Sans", "family"], { encoding: "utf8" }).stdout ?? "";
  const arial = spawnSync("fc-list", [":family=Arial", "family"], { encoding: "utf8" }).stdout ?? "";
  return fonts.trim() !== "" || arial.trim() !== "";
}

function ensureLayoutFonts() {
  if (hasArialMetrics()) return;
  if (canApt()) {
    console.log("No font with Arial's metrics found: installing Debian's fonts-liberation package (apt-get)…");
    if (aptInstall(["fonts-liberation"]) && hasArialMetrics()) return;
    console.error("Installing fonts-liberation with apt-get failed (see above).");
  }
  console.error(
    [
      "The browser tests measure layouts in Arial's metrics, and no such font was found.",
      "  - Debian/Ubuntu: sudo apt-get install fonts-liberation",
      "  - elsewhere: install Liberation Sans or Arial, then run `npm test` again.",
    ].join("\n"),
  );
  process.exit(1);
}

/**
 * Finds a browser or installs Debian's chromium when running as root with apt; otherwise explains how
 * to get one; and the fonts its layouts are measured in (above). Returns the executable path or exits the process
 * with status 1.
 */
export function ensureChromium() {
  const found = findChromium();
  if (found) {
    ensureLayoutFonts();
    return found;
  }
  if (canApt()) {
    console.log("No Chromium found: installing Debian's chromium package (apt-get)…");
    const installed = aptInstall(["chromium", "fonts-liberation"]) ? findChromium() : undefined;
    if (installed) {
      ensureLayoutFonts();
      return installed;
    }
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
