import { describe, expect, it } from "vitest";

import { onVerificationChange, verificationChangeListeners, type VerificationChangeListener } from "./changes";

describe("onVerificationChange", () => {
  it("registers a listener once however often it is given, and the returned function unregisters it", () => {
    const listener: VerificationChangeListener = async () => undefined;
    const unregister = onVerificationChange(listener);
    onVerificationChange(listener);
    expect(verificationChangeListeners().filter((registered) => registered === listener)).toHaveLength(1);
    unregister();
    expect(verificationChangeListeners()).not.toContain(listener);
  });

  it("unregisters only its own listener", () => {
    const kept: VerificationChangeListener = async () => undefined;
    const dropped: VerificationChangeListener = async () => undefined;
    const unregisterKept = onVerificationChange(kept);
    onVerificationChange(dropped)();
    expect(verificationChangeListeners()).toContain(kept);
    expect(verificationChangeListeners()).not.toContain(dropped);
    unregisterKept();
  });
});
