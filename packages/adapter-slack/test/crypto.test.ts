import { randomBytes } from "node:crypto";
import { ConfigError } from "@baton/core";
import { describe, expect, it } from "vitest";
import { decodeKey, decryptToken, encryptToken, isEncryptedTokenData } from "../src/index.js";

const key = randomBytes(32);
const token = "xoxb-1234567890-abcdefghijklmnop";

describe("encryptToken / decryptToken", () => {
  it("round-trips a token correctly", () => {
    const encrypted = encryptToken(token, key);
    expect(encrypted.data).not.toContain("xoxb");
    expect(decryptToken(encrypted, key)).toBe(token);
  });

  it("produces different ciphertexts for same input (random IV)", () => {
    const first = encryptToken(token, key);
    const second = encryptToken(token, key);
    expect(first.iv).not.toBe(second.iv);
    expect(first.data).not.toBe(second.data);
    expect(decryptToken(second, key)).toBe(token);
  });

  it("decryption with wrong key throws", () => {
    const encrypted = encryptToken(token, key);
    expect(() => decryptToken(encrypted, randomBytes(32))).toThrow();
  });

  it("decryption with tampered ciphertext throws", () => {
    const encrypted = encryptToken(token, key);
    const bytes = Buffer.from(encrypted.data, "base64");
    bytes[0] = (bytes[0] ?? 0) ^ 0xff;
    expect(() => decryptToken({ ...encrypted, data: bytes.toString("base64") }, key)).toThrow();
  });
});

describe("decodeKey", () => {
  it("decodes a valid 32-byte base64 key", () => {
    const raw = randomBytes(32);
    expect(decodeKey(raw.toString("base64")).equals(raw)).toBe(true);
  });

  it("decodes a valid 64-char hex key", () => {
    const raw = randomBytes(32);
    expect(decodeKey(raw.toString("hex")).equals(raw)).toBe(true);
  });

  it("trims whitespace", () => {
    const raw = randomBytes(32);
    expect(decodeKey(`  ${raw.toString("base64")}\n`).equals(raw)).toBe(true);
  });

  it("throws for non-32-byte key", () => {
    expect(() => decodeKey(randomBytes(16).toString("base64"))).toThrow(/32 bytes/);
  });

  it("throws for empty string", () => {
    expect(() => decodeKey("   ")).toThrow(ConfigError);
  });
});

describe("isEncryptedTokenData", () => {
  it("returns true for valid encrypted data", () => {
    expect(isEncryptedTokenData(encryptToken(token, key))).toBe(true);
  });

  it("returns false for plain string", () => {
    expect(isEncryptedTokenData(token)).toBe(false);
  });

  it("returns false for null/undefined", () => {
    expect(isEncryptedTokenData(null)).toBe(false);
    expect(isEncryptedTokenData(undefined)).toBe(false);
  });

  it("returns false for object missing fields", () => {
    expect(isEncryptedTokenData({ data: "a", iv: "b" })).toBe(false);
  });

  it("returns false for object with non-string fields", () => {
    expect(isEncryptedTokenData({ data: 1, iv: "b", tag: "c" })).toBe(false);
  });
});

describe("encrypted token integrity (Baton)", () => {
  it("refuses a truncated 4-byte tag that GCM would otherwise accept", () => {
    const encrypted = encryptToken(token, key);
    const short = Buffer.from(encrypted.tag, "base64").subarray(0, 4).toString("base64");
    expect(() => decryptToken({ ...encrypted, tag: short }, key)).toThrow(/tag must be 16 bytes/);
  });

  it("refuses a nonce that is not 12 bytes", () => {
    const encrypted = encryptToken(token, key);
    const longIv = randomBytes(16).toString("base64");
    expect(() => decryptToken({ ...encrypted, iv: longIv }, key)).toThrow(/nonce must be 12 bytes/);
  });

  it("a ciphertext bound to one aad does not decrypt under another", () => {
    const encrypted = encryptToken(token, key, "slack:installation:T1");
    expect(decryptToken(encrypted, key, "slack:installation:T1")).toBe(token);
    expect(() => decryptToken(encrypted, key, "slack:installation:T2")).toThrow();
    expect(() => decryptToken(encrypted, key)).toThrow();
  });
});

describe("decodeKey strictness (Baton)", () => {
  it("refuses junk after the padding and base64url keys", () => {
    const raw = randomBytes(32);
    expect(() => decodeKey(`${raw.toString("base64")}!!junk`)).toThrow(ConfigError);
    const url = Buffer.from(new Uint8Array(32).fill(0xfb)).toString("base64url");
    expect(() => decodeKey(url)).toThrow(/standard base64/);
  });
});
