import type { Adapter } from "../contracts/adapter.js";
import { type Logger, silentLogger } from "../contracts/logger.js";
import type { StateAdapter } from "../contracts/state.js";
import type { ThreadCoordination } from "./thread-coordination.js";
import type { ThreadHistoryCache } from "./thread-history.js";

/**
 * What a thread or channel handle works with: its adapter, the State, a logger, and (inside a
 * `Chat`) the Chat's coordination for `once` and `hold`.
 */
export interface RuntimeBinding {
  readonly adapter: Adapter;
  readonly state: StateAdapter;
  readonly logger: Logger;
  /** Absent outside a `Chat`: the handle then coordinates through the State alone. */
  readonly coordination?: ThreadCoordination;
  /** The Chat's persisted thread history (adapters with `persistThreadHistory`). */
  readonly history?: ThreadHistoryCache;
}

/** Finds the binding of an adapter by name; a `Chat` is one for its own adapters. */
export interface BindingSource {
  /** Throws a `ValidationError` naming the adapter when there is none of that name. */
  bindingFor(adapterName: string): RuntimeBinding;
}

/**
 * A binding found on first use and kept from then on, so a revived handle stays with the runtime
 * it first resolved even when the Chat singleton changes later. A handle built by a `Chat` is
 * bound from the start. An adapter given up front (`fromJSON(json, adapter)`) is used without
 * any lookup; the State and the logger are still looked up when first needed.
 */
export class LazyBinding {
  private resolved: RuntimeBinding | undefined;

  private constructor(
    private readonly resolve: () => RuntimeBinding,
    private readonly knownAdapter: Adapter | undefined,
  ) {}

  /** Bound from the start. */
  static of(binding: RuntimeBinding): LazyBinding {
    const lazy = new LazyBinding(() => binding, binding.adapter);
    lazy.resolved = binding;
    return lazy;
  }

  /** Bound on first use through `resolve`; `adapter`, when given, overrides the found one. */
  static deferred(resolve: () => RuntimeBinding, adapter?: Adapter): LazyBinding {
    return new LazyBinding(resolve, adapter);
  }

  /** The adapter; resolves the binding unless the adapter was given up front. */
  get adapter(): Adapter {
    return this.knownAdapter ?? this.get().adapter;
  }

  /** The State; resolves the binding (throws when it cannot be found). */
  get state(): StateAdapter {
    return this.get().state;
  }

  /**
   * The logger of the binding, without failing: a handle revived with its adapter but no Chat to
   * bind to can still post, and logs nowhere until a binding is found.
   */
  get logger(): Logger {
    if (this.resolved) return this.resolved.logger;
    try {
      return this.get().logger;
    } catch {
      return silentLogger;
    }
  }

  /** The Chat's persisted thread history, or `undefined` outside a Chat; resolves the binding. */
  get history(): ThreadHistoryCache | undefined {
    return this.get().history;
  }

  /** The Chat's coordination, or `undefined` outside a Chat; resolves the binding. */
  get coordination(): ThreadCoordination | undefined {
    return this.get().coordination;
  }

  private get(): RuntimeBinding {
    if (this.resolved) return this.resolved;
    const found = this.resolve();
    this.resolved = this.knownAdapter ? { ...found, adapter: this.knownAdapter } : found;
    return this.resolved;
  }
}
