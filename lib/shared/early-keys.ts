/*
 * Keys pressed before the code that answers them runs (issue 32: "no input lost to loading"). The signed-in shell
 * inlines EARLY_KEYS_SCRIPT (with the page's CSP nonce) at the top of the page, so from the first byte of HTML on, a
 * shortcut key pressed outside a field that nothing on the page answered (no listener took it and called
 * `preventDefault`) is written down with the page it was pressed on. A page's keyboard code, when it starts, takes
 * the keys it answers (`applyEarlyKeys`, which claims them with `claimEarlyKeys` now and a task later) and applies
 * them as if they had just been pressed: a key pressed before the page's code ran, or before one panel's listener was
 * there while another's already was, is kept for whoever answers it, and given once.
 */

/** Keys older than this when their code arrives are dropped: pressed that long ago, they are not meant any more. */
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
    __earlyKeys?: EarlyKey[];
  }
}

/**
 * The inline recorder: single printable keys without Ctrl/Alt/Meta, outside fields. Whether a listener answered the
 * key is known once its dispatch is over, so the check waits a task; keys from another page or too old are dropped
 * then, and at most EARLY_KEY_MAX are kept.
 */
export const EARLY_KEYS_SCRIPT = `(function(){var k=[];window.__earlyKeys=k;addEventListener("keydown",function(e){var t=e.target;if(e.ctrlKey||e.metaKey||e.altKey||e.key.length!==1)return;if(t&&(t.isContentEditable||/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName)))return;var p=location.pathname,a=Date.now();setTimeout(function(){if(e.defaultPrevented)return;for(var i=k.length-1;i>=0;i--)if(k[i].path!==p||a-k[i].at>${EARLY_KEY_MAX_AGE_MS})k.splice(i,1);if(k.length<${EARLY_KEY_MAX})k.push({key:e.key,path:p,at:a})},0)},true)})();`;

/**
 * The keys `answers` on this page that nothing answered yet, oldest first; they are taken (never given twice). Keys
 * pressed on another page (before a navigation within the app) or too long ago are left out.
 */
export function claimEarlyKeys(answers: RegExp, now = Date.now()): string[] {
  const kept = window.__earlyKeys;
  if (!Array.isArray(kept)) return [];
  const claimed: string[] = [];
  for (let index = 0; index < kept.length;) {
    const entry = kept[index]!;
    const current = entry.path === window.location.pathname && now - entry.at <= EARLY_KEY_MAX_AGE_MS;
    if (current && answers.test(entry.key)) {
      claimed.push(entry.key);
      kept.splice(index, 1);
    } else index += 1;
  }
  return claimed;
}

/**
 * A listener's start: the keys `answers` on this page that nothing answered yet, given to `apply` now and, once more,
 * a task later. The recorder writes a key down a task after its dispatch (it waits to know whether a listener
 * answered it), so a key pressed just before the listener started, whose dispatch is over but whose note is not
 * written yet, would be missed by a claim made in between and then kept for nobody (seen in a browser test under load:
 * `l` pressed as the record panel hydrated). The recorder's task was queued first, so by the second look it has run.
 * Returns what cancels the second look (the effect's cleanup).
 */
export function applyEarlyKeys(answers: RegExp, apply: (keys: string[]) => void): () => void {
  const now = claimEarlyKeys(answers);
  if (now.length > 0) apply(now);
  const later = window.setTimeout(() => {
    const keys = claimEarlyKeys(answers);
    if (keys.length > 0) apply(keys);
  }, 0);
  return () => window.clearTimeout(later);
}
