import { afterEach, describe, expect, it } from "vitest";

import { EARLY_KEYS_SCRIPT, takeEarlyKeys } from "./early-keys";

// The inline recorder as the browser runs it (the shell inlines the same text), then the page's code taking its keys.
function startRecorder() {
  new Function(EARLY_KEYS_SCRIPT)();
}

function press(key: string, target: EventTarget = document.body, init: KeyboardEventInit = {}) {
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, ...init }));
}

afterEach(() => {
  takeEarlyKeys();
  document.body.innerHTML = "";
  window.history.replaceState(null, "", "/");
});

describe("keys pressed before the page's code runs", () => {
  it("are kept in order, outside fields and without modifiers, and given once", () => {
    window.history.replaceState(null, "", "/verifications/abc");
    startRecorder();
    const field = document.body.appendChild(document.createElement("textarea"));
    press("j");
    press("x", field);
    press("k", document.body, { ctrlKey: true });
    press("Enter");
    press("?");
    expect(takeEarlyKeys()).toEqual(["j", "?"]);
    // Taken: the recording has ended, nothing is given twice.
    press("u");
    expect(takeEarlyKeys()).toEqual([]);
  });

  it("leave out keys pressed on another page or too long ago", () => {
    window.history.replaceState(null, "", "/cases");
    startRecorder();
    press("j");
    window.history.replaceState(null, "", "/verifications/abc");
    press("x");
    expect(takeEarlyKeys(Date.now() + 1_000)).toEqual(["x"]);

    startRecorder();
    press("x");
    expect(takeEarlyKeys(Date.now() + 60_000)).toEqual([]);
  });

  it("are at most a few: a held key is not a queue of commands", () => {
    startRecorder();
    for (let n = 0; n < 30; n += 1) press("j");
    expect(takeEarlyKeys().length).toBeLessThanOrEqual(8);
    expect(takeEarlyKeys()).toEqual([]);
  });
});
