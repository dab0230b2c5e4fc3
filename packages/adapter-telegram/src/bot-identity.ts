import type { TelegramApi } from "./api.js";
import type { TelegramBotIdentity } from "./message.js";

/** The bot's identity plus the scope its long-polling lease and stored callbacks are keyed by. */
export type ScopedTelegramIdentity = TelegramBotIdentity & { scope: string };

/**
 * The bot's username and id. A configured username and the token's numeric prefix are enough
 * and cost no call; otherwise `getMe` is asked once and its answer kept, and a failed `getMe`
 * is forgotten so the next update asks again instead of failing forever.
 */
export class TelegramIdentity {
  private me: Promise<{ id: number; username?: string }> | undefined;
  private knownUserName: string | undefined;

  constructor(
    private readonly api: TelegramApi,
    configuredUserName: string | undefined,
    private readonly userIdFromToken: () => string | undefined,
  ) {
    this.knownUserName = configuredUserName;
  }

  /** The username known so far (configured, else from `getMe` once it answered). */
  get userName(): string | undefined {
    return this.knownUserName;
  }

  /** The full identity, asking `getMe` only when the username or id is not known yet. */
  async resolve(): Promise<ScopedTelegramIdentity> {
    const fromToken = this.userIdFromToken();
    if (this.knownUserName !== undefined && fromToken !== undefined) {
      return { userName: this.knownUserName, userId: fromToken, scope: fromToken };
    }
    this.me ??= this.api
      .call<{ id: number; username?: string }>("getMe")
      .catch((error: unknown) => {
        this.me = undefined;
        throw error;
      });
    const me = await this.me;
    this.knownUserName ??= me.username;
    return { userName: this.knownUserName, userId: String(me.id), scope: String(me.id) };
  }
}
