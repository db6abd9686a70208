import { describe, expect, it } from "vitest";

import { MAX_RECENT_SECRETS, redactText, registerRecentSecret, registerSecrets } from "./log";

// Opaque values with no token shape, so only the registered-secret pass can obscure them.
const opaque = (label: string) => `opaque-secret-value-${label}-end`;

describe("registered secrets", () => {
  it("obscures recent rotating secrets, and keeps only the most recent ones", () => {
    const first = opaque("rotating-0");
    registerRecentSecret(first);
    expect(redactText(`value ${first}`)).toBe("value [redacted]");
    for (let index = 1; index <= MAX_RECENT_SECRETS; index += 1) registerRecentSecret(opaque(`rotating-${index}`));
    // The oldest fell out of the bounded set; the newest is still obscured.
    expect(redactText(`value ${first}`)).toBe(`value ${first}`);
    expect(redactText(`value ${opaque(`rotating-${MAX_RECENT_SECRETS}`)}`)).toBe("value [redacted]");
  });

  it("never drops a configured secret, however many rotating ones arrive", () => {
    const configured = opaque("configured-password");
    registerSecrets(configured);
    for (let index = 0; index < MAX_RECENT_SECRETS * 2; index += 1) registerRecentSecret(opaque(`later-${index}`));
    expect(redactText(`password ${configured}`)).toBe("password [redacted]");
  });
});
