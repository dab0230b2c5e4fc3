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
const TAG_BYTES = 16;

/**
 * The 32-byte key of `encryptionKey`: 64 hex digits or base64, surrounding whitespace ignored.
 * Throws a `ConfigError` for anything that is not exactly 32 bytes, so a typo in the key fails
 * at construction instead of at the first stored installation.
 */
export function decodeKey(rawKey: string): Buffer {
  const key = rawKey.trim();
  if (key === "") throw new ConfigError(["slack adapter: encryptionKey must not be empty"]);
  // Node's base64 decoder skips junk and accepts base64url, so the shape is checked first:
  // a key with a stray character must fail here, not decode to some other 32 bytes.
  if (/^[0-9a-fA-F]{64}$/.test(key)) return Buffer.from(key, "hex");
  if (!/^[A-Za-z0-9+/]{43}=$/.test(key)) {
    throw new ConfigError([
      `slack adapter: encryptionKey must be ${KEY_BYTES} bytes, as 44 characters of standard base64 or 64 hex digits`,
    ]);
  }
  const bytes = Buffer.from(key, "base64");
  if (bytes.byteLength !== KEY_BYTES) {
    throw new ConfigError([`slack adapter: encryptionKey must be ${KEY_BYTES} bytes`]);
  }
  return bytes;
}

/**
 * Encrypts `plaintext` under `key` with a random nonce: the same token never encrypts alike.
 * `aad` (additional authenticated data, e.g. the installation's State key) binds the ciphertext
 * to its owner: {@link decryptToken} fails unless it is given the same `aad`.
 */
export function encryptToken(plaintext: string, key: Buffer, aad?: string): EncryptedTokenData {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  if (aad !== undefined) cipher.setAAD(Buffer.from(aad, "utf8"));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return {
    data: data.toString("base64"),
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
  };
}

/**
 * Decrypts what {@link encryptToken} made. Throws when the key or `aad` is wrong, the nonce is
 * not 12 bytes, the tag not 16 bytes, or any field was altered (GCM's tag check); never returns
 * a garbled token.
 */
export function decryptToken(encrypted: EncryptedTokenData, key: Buffer, aad?: string): string {
  const iv = Buffer.from(encrypted.iv, "base64");
  const tag = Buffer.from(encrypted.tag, "base64");
  // Node accepts a truncated GCM tag (down to 4 bytes) unless the length is pinned: a short
  // tag would make forging a ciphertext cheap.
  if (iv.byteLength !== IV_BYTES) {
    throw new Error(
      `slack adapter: encrypted token nonce must be ${IV_BYTES} bytes, got ${iv.byteLength}`,
    );
  }
  if (tag.byteLength !== TAG_BYTES) {
    throw new Error(
      `slack adapter: encrypted token tag must be ${TAG_BYTES} bytes, got ${tag.byteLength}`,
    );
  }
  const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  if (aad !== undefined) decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(tag);
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
