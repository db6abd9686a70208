import { afterEach, describe, expect, it } from "vitest";

import { applyEarlyKeys, claimEarlyKeys, EARLY_KEYS_SCRIPT } from "./early-keys";

const ANY = /^.$/;
const recorders: Array<(event: Event) => void> = [];

// The inline recorder as the browser runs it (the shell inlines the same text); its listener is noted to be removed.
function startRecorder() {
  const add = window.addEventListener;
  window.addEventListener = ((type: string, listener: (event: Event) => void, options?: boolean) => {
    recorders.push(listener);
    add.call(window, type, listener, options);
  }) as typeof window.addEventListener;
  try {
    new Function(EARLY_KEYS_SCRIPT)();
  } finally {
    window.addEventListener = add;
  }
}

function press(key: string, target: EventTarget = document.body, init: KeyboardEventInit = {}) {
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init }));
}

/** The recorder decides once the key's dispatch is over: a task later. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  for (const listener of recorders.splice(0)) window.removeEventListener("keydown", listener, true);
  delete window.__earlyKeys;
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
});

describe("keys pressed before the code that answers them runs", () => {
  it("are kept in order, outside fields and without modifiers, and given once", async () => {
    window.history.replaceState(null, "", "/verifications/abc");
    startRecorder();
    const field = document.body.appendChild(document.createElement("textarea"));
    press("j");
    press("x", field);
    press("k", document.body, { ctrlKey: true });
    press("Enter");
    press("?");
    await settled();
    expect(claimEarlyKeys(ANY)).toEqual(["j", "?"]);
    expect(claimEarlyKeys(ANY)).toEqual([]);
  });

  it("are given to whoever answers them: a claim takes its own keys and leaves the others for a later one", async () => {
    window.history.replaceState(null, "", "/verifications/abc");
    startRecorder();
    press("j");
    press("l");
    press("k");
    await settled();
    expect(claimEarlyKeys(/^[jk]$/)).toEqual(["j", "k"]);
    // The record panel's listener comes later (it hydrates after the case's keys): its key was kept for it.
    expect(claimEarlyKeys(/^l$/)).toEqual(["l"]);
    expect(claimEarlyKeys(ANY)).toEqual([]);
  });

  it("are not kept when a listener already answered them", async () => {
    startRecorder();
    const answer = (event: KeyboardEvent) => {
      if (event.key === "j") event.preventDefault();
    };
    window.addEventListener("keydown", answer);
    try {
      press("j");
      press("l");
      await settled();
      expect(claimEarlyKeys(ANY)).toEqual(["l"]);
    } finally {
      window.removeEventListener("keydown", answer);
    }
  });

  it("leave out keys pressed on another page or too long ago", async () => {
    window.history.replaceState(null, "", "/cases");
    startRecorder();
    press("j");
    window.history.replaceState(null, "", "/verifications/abc");
    press("x");
    await settled();
    expect(claimEarlyKeys(ANY, Date.now() + 1_000)).toEqual(["x"]);

    press("x");
    await settled();
    expect(claimEarlyKeys(ANY, Date.now() + 60_000)).toEqual([]);
  });

  it("are at most a few: a held key is not a queue of commands", async () => {
    startRecorder();
    for (let n = 0; n < 30; n += 1) press("j");
    await settled();
    const claimed = claimEarlyKeys(ANY);
    expect(claimed.length).toBeGreaterThan(0);
    expect(claimed.length).toBeLessThanOrEqual(8);
    expect(claimEarlyKeys(ANY)).toEqual([]);
  });

  it("a key pressed just before its listener starts, not written down yet, is applied a task later, once", async () => {
    window.history.replaceState(null, "", "/verifications/abc");
    startRecorder();
    // Dispatched and over, but the recorder writes it down a task later: a claim now finds nothing.
    press("l");
    const applied: string[][] = [];
    const stop = applyEarlyKeys(/^l$/, (keys) => applied.push(keys));
    expect(applied).toEqual([]);
    await settled();
    expect(applied).toEqual([["l"]]);
    await settled();
    expect(applied).toEqual([["l"]]);
    stop();
  });

  it("applies at once the keys already written down, and nothing a task later once stopped", async () => {
    window.history.replaceState(null, "", "/verifications/abc");
    startRecorder();
    press("t");
    await settled();
    const applied: string[][] = [];
    const stop = applyEarlyKeys(/^[tl]$/, (keys) => applied.push(keys));
    expect(applied).toEqual([["t"]]);
    press("l");
    stop();
    await settled();
    expect(applied).toEqual([["t"]]);
    // Not taken by the stopped listener: kept for the next one.
    expect(claimEarlyKeys(/^l$/)).toEqual(["l"]);
  });
});
