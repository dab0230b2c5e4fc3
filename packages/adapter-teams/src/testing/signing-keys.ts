import { generateKeyPairSync, type KeyObject, randomUUID, sign } from "node:crypto";

/** An RSA key pair that signs Bot Framework tokens, published under `kid` in a JWKS. */
export interface SigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/** A fresh 2048-bit RSA signing key (the size Microsoft's keys have). */
export function createSigningKey(kid: string = randomUUID()): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { kid, privateKey, publicKey };
}

/** The key's public half as a JWKS entry, as `login.botframework.com` publishes its keys. */
export function publicJwk(key: SigningKey): Record<string, unknown> {
  const jwk = key.publicKey.export({ format: "jwk" });
  return { ...jwk, kid: key.kid, use: "sig", alg: "RS256", endorsements: ["msteams"] };
}

function part(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** An RS256 JWT over `claims`, signed with `key` (node:crypto only; test kit use). */
export function signJwt(key: SigningKey, claims: Record<string, unknown>): string {
  const head = part({ alg: "RS256", typ: "JWT", kid: key.kid, x5t: key.kid });
  const body = part(claims);
  const signature = sign("RSA-SHA256", Buffer.from(`${head}.${body}`), key.privateKey);
  return `${head}.${body}.${signature.toString("base64url")}`;
}
