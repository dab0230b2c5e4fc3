/**
 * The Redis Cluster slot of `key`, computed as the cluster spec says: CRC16 (XMODEM) of the hash
 * tag — the text between the first `{` and the next `}`, when not empty — or of the whole key,
 * modulo 16384. Computed here because `CLUSTER KEYSLOT` needs a server in cluster mode.
 */
export function keySlot(key: string): number {
  let hashed = key;
  const open = key.indexOf("{");
  if (open !== -1) {
    const close = key.indexOf("}", open + 1);
    if (close > open + 1) hashed = key.slice(open + 1, close);
  }
  return crc16(Buffer.from(hashed, "utf8")) % 16_384;
}

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}
