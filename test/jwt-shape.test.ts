import { describe, expect, it } from "vitest";

import { JWT_SHAPE } from "./jwt-shape";

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("JWT_SHAPE", () => {
  it("finds a JWT in any text, and not a sealed value whose random part begins with eyJ", () => {
    const jwt = `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: "int_main", exp: 1796303013 })}.c2lnbmF0dXJlLWJ5dGVz`;
    expect(`token=${jwt};`).toMatch(JWT_SHAPE);
    expect(`{"authorization":"Bearer ${jwt}"}`).toMatch(JWT_SHAPE);
    // The shape of the CI run's false match: a sealed column, "v1.<key>.<iv>.<ciphertext>.<tag>", a part starting "eyJ".
    expect("v1.1.eyJerfPgmA6xne3m1V.hsfJslYAlzejqutOzwXsY58g.bEnvR5nbNKAciKFu1njkA").not.toMatch(JWT_SHAPE);
    expect("v1.1.pyzZWwqlxSJUOZa.eyJNM5OnQ6dgQnRBMI55gq.hYbYATidH0y95JOPfTHgMQ").not.toMatch(JWT_SHAPE);
  });
});
