/*
 * Keys pressed before the page's code runs (issue 32: "no input lost to loading"). The signed-in shell inlines
 * EARLY_KEYS_SCRIPT (with the page's CSP nonce) at the top of the page, so from the first byte of HTML on, a
 * shortcut key pressed outside a field is written down with the page it was pressed on. The page's keyboard code,
 * once it runs, takes them (`takeEarlyKeys`) and applies them as if they had just been pressed; taking ends the
 * recording for the tab, so a key is never applied twice nor on another page.
 */

/** Keys older than this when the page's code arrives are dropped: pressed that long ago, they are not meant any more. */
const EARLY_KEY_MAX_AGE_MS = 15_000;
/** At most this many kept: a held key is not a queue of commands. */
const EARLY_KEY_MAX = 8;

interface EarlyKey {
  key: string;
  path: string;
  at: number;
}

declare global {
  interface Window {
    __earlyKeys?: EarlyKey[] | null;
  }
}

/** The inline recorder: single printable keys without Ctrl/Alt/Meta, outside fields, with the page's path and time. */
export const EARLY_KEYS_SCRIPT = `(function(){var k=[];window.__earlyKeys=k;function on(e){if(window.__earlyKeys!==k){removeEventListener("keydown",on,true);return}var t=e.target;if(e.ctrlKey||e.metaKey||e.altKey||e.key.length!==1||k.length>=${EARLY_KEY_MAX})return;if(t&&(t.isContentEditable||/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))return;k.push({key:e.key,path:location.pathname,at:Date.now()})}addEventListener("keydown",on,true)})();`;

/**
 * The keys pressed on this page before its code ran, oldest first, and the end of the recording. Keys pressed on
 * another page (before a navigation within the app) or too long ago are left out.
 */
export function takeEarlyKeys(now = Date.now()): string[] {
  const kept = window.__earlyKeys;
  window.__earlyKeys = null;
  if (!Array.isArray(kept)) return [];
  return kept
    .filter((entry) => entry.path === window.location.pathname && now - entry.at <= EARLY_KEY_MAX_AGE_MS)
    .map((entry) => entry.key);
}
