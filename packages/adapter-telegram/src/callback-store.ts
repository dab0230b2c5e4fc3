import type { StateAdapter } from "@baton/core";
import {
  decodeTelegramCallbackData,
  encodeTelegramCallbackData,
  newStoredCallbackData,
  STORED_CALLBACK_PREFIX,
  type TelegramCallbackEncoder,
  type TelegramCallbackPayload,
} from "./cards.js";

/** How long a button payload too long for `callback_data` is kept in the State. */
export const STORED_CALLBACK_TTL_MS = 30 * 24 * 60 * 60 * 1_000;

function storedKey(data: string): string {
  return `telegram:callback:${data}`;
}

/**
 * Button payloads past Telegram's 64-byte `callback_data`: the encoder gives such a button a
 * short random key instead, `flush` writes the payloads to the State before the message that
 * shows the buttons is sent (so any instance can answer a tap), and `decode` reads them back.
 */
export class TelegramCallbackStore {
  private readonly pending = new Map<string, TelegramCallbackPayload>();

  constructor(private readonly state: () => StateAdapter) {}

  /** An encoder that never throws for length: long payloads get a stored key. */
  encoder(): TelegramCallbackEncoder {
    return (actionId, value) => {
      try {
        return encodeTelegramCallbackData(actionId, value);
      } catch {
        const key = newStoredCallbackData();
        this.pending.set(key, { actionId, value });
        return key;
      }
    };
  }

  /** Writes the payloads the encoder stood in for. */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    this.pending.clear();
    const state = this.state();
    for (const [key, payload] of entries) {
      const stored = { actionId: payload.actionId, value: payload.value ?? null };
      await state.set(storedKey(key), stored, STORED_CALLBACK_TTL_MS);
    }
  }

  /** The payload of a tapped button: stored ones from the State, the rest decoded in place. */
  async decode(
    data: string | undefined,
    onExpired: (data: string) => void,
  ): Promise<TelegramCallbackPayload> {
    if (data?.startsWith(STORED_CALLBACK_PREFIX)) {
      const stored = (await this.state().get(storedKey(data))) as {
        actionId?: string;
        value?: string | null;
      } | null;
      if (stored?.actionId !== undefined) {
        return { actionId: stored.actionId, value: stored.value ?? undefined };
      }
      onExpired(data);
    }
    return decodeTelegramCallbackData(data);
  }
}
