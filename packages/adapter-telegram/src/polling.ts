import { type Clock, type Lock, type Logger, type StateAdapter, sleep } from "@baton/core";
import type { TelegramApi } from "./api.js";
import type { ResolvedLongPolling } from "./options.js";
import { type TelegramUpdate, toTelegramUpdate } from "./parse.js";

/** What the poller needs. */
export interface TelegramPollerOptions {
  readonly api: TelegramApi;
  readonly state: () => StateAdapter;
  readonly settings: ResolvedLongPolling;
  readonly clock: Clock;
  readonly logger: () => Logger;
  /** The bot's stable scope (its numeric id): one lease and one offset per bot. */
  readonly scope: () => Promise<string>;
  /** Accepts one update; resolves once it is accepted (claimed and handed to the Chat). */
  readonly handle: (update: TelegramUpdate) => Promise<unknown>;
}

/** The State key of the polling lease of one bot. */
export function pollLeaseKey(scope: string): string {
  return `telegram:poll-lease:${scope}`;
}

/** The State key of the next `getUpdates` offset of one bot. */
export function pollOffsetKey(scope: string): string {
  return `telegram:poll-offset:${scope}`;
}

/**
 * Long polling that is safe on any number of instances. Telegram allows one `getUpdates` caller
 * per bot, so instances take turns through a lease (a State lock): the holder renews it every
 * third of its TTL and polls; the others wait, and take over within one TTL when the holder
 * dies. The offset lives in the State and moves past an update only after the update was
 * accepted, so a holder that dies mid-batch leaves the rest to its successor — and the update
 * claims make a re-fetched update run once.
 */
export class TelegramPoller {
  private running = false;
  private loop: Promise<void> | undefined;
  private stopController = new AbortController();
  private lease: Lock | undefined;
  private renewTimer: ReturnType<Clock["setTimeout"]> | undefined;
  private pollController: AbortController | undefined;

  constructor(private readonly options: TelegramPollerOptions) {}

  /** True while this instance holds the lease. */
  get isPolling(): boolean {
    return this.lease !== undefined;
  }

  /** Starts the loop; a second call does nothing while it runs. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopController = new AbortController();
    this.loop = this.run().catch((error: unknown) => {
      this.options.logger().error("telegram: polling stopped on an error", { error });
    });
  }

  /**
   * Stops the loop and waits for it. `releaseLease: false` leaves the lease to expire, as a
   * crashed instance would (for failover drills); by default it is released at once.
   */
  async stop(options: { releaseLease?: boolean } = {}): Promise<void> {
    this.running = false;
    this.stopController.abort(new Error("polling stopped"));
    this.pollController?.abort(new Error("polling stopped"));
    await this.loop;
    this.loop = undefined;
    this.clearRenewal();
    const lease = this.lease;
    this.lease = undefined;
    if (lease !== undefined && options.releaseLease !== false) {
      await this.options
        .state()
        .releaseLock(lease)
        .catch(() => false);
    }
  }

  private async run(): Promise<void> {
    const scope = await this.options.scope();
    const { settings } = this.options;
    while (this.running) {
      if (this.lease === undefined && !(await this.tryAcquire(scope))) {
        await this.pause(settings.leaseTtlMs / 3);
        continue;
      }
      try {
        await this.pollOnce(scope);
      } catch (error) {
        if (!this.running) return;
        this.options.logger().warn("telegram: getUpdates failed", { error });
        await this.pause(settings.retryDelayMs);
      }
    }
  }

  private async tryAcquire(scope: string): Promise<boolean> {
    const lease = await this.options
      .state()
      .acquireLock(pollLeaseKey(scope), this.options.settings.leaseTtlMs);
    if (lease === null) return false;
    this.lease = lease;
    this.scheduleRenewal();
    this.options.logger().info("telegram: this instance now polls", { fence: lease.fence });
    return true;
  }

  private scheduleRenewal(): void {
    const { clock, settings } = this.options;
    this.renewTimer = clock.setTimeout(() => {
      void this.renew();
    }, settings.leaseTtlMs / 3);
  }

  private clearRenewal(): void {
    if (this.renewTimer !== undefined) this.options.clock.clearTimeout(this.renewTimer);
    this.renewTimer = undefined;
  }

  private async renew(): Promise<void> {
    const lease = this.lease;
    if (lease === undefined || !this.running) return;
    const kept = await this.options
      .state()
      .extendLock(lease, this.options.settings.leaseTtlMs)
      .catch(() => false);
    if (this.lease !== lease) return;
    if (kept) {
      this.scheduleRenewal();
      return;
    }
    this.options.logger().warn("telegram: polling lease lost; another instance polls now");
    this.lease = undefined;
    this.pollController?.abort(new Error("polling lease lost"));
  }

  private async pollOnce(scope: string): Promise<void> {
    const { api, settings, state } = this.options;
    const stored = await state().get(pollOffsetKey(scope));
    const offset = typeof stored === "number" ? stored : undefined;
    this.pollController = new AbortController();
    const raw = await api.call<unknown[]>(
      "getUpdates",
      {
        ...(offset === undefined ? {} : { offset }),
        timeout: settings.timeout,
        limit: settings.limit,
        ...(settings.allowedUpdates === undefined
          ? {}
          : { allowed_updates: settings.allowedUpdates }),
      },
      this.pollController.signal,
    );
    const updates = Array.isArray(raw) ? raw : [];
    for (const item of updates) {
      // A lost lease ends the batch: the new holder continues from the stored offset.
      if (this.lease === undefined || !this.running) return;
      let update: TelegramUpdate;
      try {
        update = toTelegramUpdate(item);
      } catch (error) {
        this.options.logger().warn("telegram: malformed update skipped", { error });
        const id = (item as { update_id?: unknown } | null)?.update_id;
        if (typeof id === "number") await state().set(pollOffsetKey(scope), id + 1);
        continue;
      }
      await this.options.handle(update);
      await state().set(pollOffsetKey(scope), update.update_id + 1);
    }
    if (updates.length === 0 && settings.timeout === 0) await this.pause(settings.retryDelayMs);
  }

  private async pause(delayMs: number): Promise<void> {
    await sleep(this.options.clock, delayMs, this.stopController.signal).catch(() => undefined);
  }
}

/**
 * True on a serverless platform (Vercel, AWS Lambda, Netlify, Cloud Run/Functions): a function
 * that sleeps between requests cannot hold a long poll, so `auto` stays on webhooks there.
 */
export function isServerlessRuntime(env: Record<string, string | undefined>): boolean {
  return ["VERCEL", "AWS_LAMBDA_FUNCTION_NAME", "NETLIFY", "K_SERVICE", "FUNCTION_TARGET"].some(
    (name) => (env[name] ?? "") !== "",
  );
}
