import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ConfigError } from "@baton/core";

/** A token encrypted with AES-256-GCM, as stored in the State (every field base64). */
export interface EncryptedTokenData {
  /** The ciphertext. */
  readonly data: string;
  /** The 12-byte nonce, fresh for every encryption. */
  readonly iv: string;
  /** GCM's 16-byte authentication tag: decryption fails when data, iv or key differ. */
  readonly tag: string;
}

const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const KEY_BYTES = 32;

/**
 * The 32-byte key of `encryptionKey`: 64 hex digits or base64, surrounding whitespace ignored.
 * Throws a `ConfigError` for anything that is not exactly 32 bytes, so a typo in the key fails
 * at construction instead of at the first stored installation.
 */
export function decodeKey(rawKey: string): Buffer {
  const key = rawKey.trim();
  if (key === "") throw new ConfigError(["slack adapter: encryptionKey must not be empty"]);
  const bytes = /^[0-9a-fA-F]{64}$/.test(key)
    ? Buffer.from(key, "hex")
    : Buffer.from(key, "base64");
  if (bytes.byteLength !== KEY_BYTES) {
    throw new ConfigError([
      `slack adapter: encryptionKey must be ${KEY_BYTES} bytes (base64 or 64 hex digits), got ${bytes.byteLength}`,
    ]);
  }
  return bytes;
}

/** Encrypts `plaintext` under `key` with a random nonce: the same token never encrypts alike. */
export function encryptToken(plaintext: string, key: Buffer): EncryptedTokenData {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return {
    data: data.toString("base64"),
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
  };
}

/**
 * Decrypts what {@link encryptToken} made. Throws when the key is wrong or any field was
 * altered (GCM's tag check), never returns a garbled token.
 */
export function decryptToken(encrypted: EncryptedTokenData, key: Buffer): string {
  const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(encrypted.iv, "base64"));
  decipher.setAuthTag(Buffer.from(encrypted.tag, "base64"));
  const plain = Buffer.concat([
    decipher.update(Buffer.from(encrypted.data, "base64")),
    decipher.final(),
  ]);
  return plain.toString("utf8");
}

/** True for an object with string `data`, `iv` and `tag` (a stored encrypted token). */
export function isEncryptedTokenData(value: unknown): value is EncryptedTokenData {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.data === "string" &&
    typeof record.iv === "string" &&
    typeof record.tag === "string"
  );
}
