/**
 * A JWT as the leak checks look for it anywhere: a header and a payload, both JSON objects (base64url of `{"` is
 * "eyJ"), then a signature. Requiring both "eyJ" parts keeps random base64url (a sealed value's ciphertext beside its
 * "." separators) from matching: one "eyJ" alone did, once in a CI run.
 */
export const JWT_SHAPE = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;
