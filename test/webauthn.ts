import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

/*
 * A software authenticator for tests: an ES256 (P-256) key pair made with node:crypto, answering WebAuthn
 * creation options with a "none" attestation and request options with a real signature, byte for byte as a
 * browser hands them to the server (`credential.toJSON()`). The few CBOR values these need (the COSE key and the
 * attestation object) are encoded here by hand.
 */

type Cbor = number | string | Uint8Array | ReadonlyArray<readonly [Cbor, Cbor]>;

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(length, 1);
  return out;
}

/** CBOR (RFC 8949) for integers, text, byte strings and maps (a map as its ordered entries). */
export function cbor(value: Cbor): Buffer {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  return Buffer.concat([head(5, value.length), ...value.flatMap(([key, entry]) => [cbor(key), cbor(entry)])]);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

// Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data included.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftwareAuthenticator {
  credentialId: string;
  /** Answers `PublicKeyCredentialCreationOptionsJSON` (its challenge) for `origin`, as `credential.toJSON()`. */
  register(options: { challenge: string; rp: { id?: string } }, origin: string): RegistrationResponseJSON;
  /** Answers request options (their challenge) with a signature by this credential; the counter moves on each time. */
  authenticate(
    options: { challenge: string; rpId?: string },
    origin: string,
    { userHandle }?: { userHandle?: string },
  ): AuthenticationResponseJSON;
}

export function softwareAuthenticator({ userVerified = true }: { userVerified?: boolean } = {}): SoftwareAuthenticator {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const rawId = randomBytes(16);
  const credentialId = b64url(rawId);
  let counter = 0;
  const flags = UP | (userVerified ? UV : 0);

  function coseKey(key: KeyObject): Buffer {
    const jwk = key.export({ format: "jwk" });
    // kty: EC2 (2), alg: ES256 (-7), crv: P-256 (1), x, y.
    return cbor([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]);
  }

  function counterBytes(): Buffer {
    const out = Buffer.alloc(4);
    out.writeUInt32BE(counter);
    return out;
  }

  /** The credential as the browser hands it over: this authenticator's id around the response, no extension results. */
  function credential<R>(response: R) {
    return { id: credentialId, rawId: credentialId, type: "public-key" as const, response, clientExtensionResults: {} };
  }

  return {
    credentialId,
    register(options, origin) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false });
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(rawId.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([flags | AT]),
        counterBytes(),
        Buffer.alloc(16),
        idLength,
        rawId,
        coseKey(publicKey),
      ]);
      const attestationObject = cbor([
        ["fmt", "none"],
        ["attStmt", []],
        ["authData", authData],
      ]);
      return credential({
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ["internal" as const],
      });
    },
    authenticate(options, origin, { userHandle } = {}) {
      const rpId = options.rpId ?? new URL(origin).hostname;
      counter += 1;
      const clientDataJSON = JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false });
      const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes()]);
      // ES256 over authenticatorData ‖ SHA-256(clientDataJSON), DER-encoded as WebAuthn expects.
      const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), privateKey);
      return credential({
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        ...(userHandle ? { userHandle: b64url(userHandle) } : {}),
      });
    },
  };
}
