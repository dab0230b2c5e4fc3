import type { WebAdapter } from "@baton/adapter-web";
import { Chat, ConsoleLogger, type Logger, type LogLevel, type StateAdapter } from "@baton/core";
import { registerDemoBot } from "./demo-bot.js";
import { createInstanceLink, type InstanceLink } from "./instance-link.js";
import { InstanceRouter } from "./instance-router.js";
import { needsRestart, type PlaygroundSettings } from "./settings.js";
import type { Timeline } from "./timeline.js";

/** The demo bot's two instances, as two processes of one bot behind a load balancer would be. */
export const INSTANCE_NAMES = ["A", "B"] as const;
export type InstanceName = (typeof INSTANCE_NAMES)[number];

/**
 * - `running`: gets messages and sweeps; `stopping`: shutting down gracefully, gets none;
 * - `killed`: stopped dead (a simulated SIGKILL), left as it was; `stopped`: shut down.
 */
export type InstanceStatus = "running" | "stopping" | "stopped" | "killed";

/** Where new messages go: to each running instance in turn, or to one (the other if it is down). */
export type DeliverTo = "alternate" | InstanceName;

/** What the page shows of the instances. */
export interface InstancesView {
  deliverTo: DeliverTo;
  lockTtlMs: number;
  sweepIntervalMs: number;
  instances: { name: InstanceName; status: InstanceStatus; sinceMs: number }[];
}

/** What the runtime is built from; all of it outlives each `Chat`. */
export interface BotRuntimeOptions {
  /** The web adapter every instance shares: its host becomes the runtime's router. */
  adapter: WebAdapter;
  /** The State every instance shares, as instances of one bot share a Redis. */
  state: StateAdapter;
  timeline: Timeline;
  settings: PlaygroundSettings;
  logger?: Logger | LogLevel;
  /** The lock's lease; an instance that stops renewing it loses its turns this long after. */
  lockTtlMs?: number;
  /** How often each instance's sweeper looks for interrupted turns and orphaned queues. */
  sweepIntervalMs?: number;
  /** Called whenever an instance's status or the routing changed, e.g. to tell open pages. */
  onChange?(view: InstancesView): void;
}

/** Short, so a turn moves to the surviving instance while you watch. */
export const DEMO_LOCK_TTL_MS = 3_000;
export const DEMO_SWEEP_INTERVAL_MS = 1_000;
const SHUTDOWN_TIMEOUT_MS = 2_000;

interface Instance {
  readonly name: InstanceName;
  status: InstanceStatus;
  sinceMs: number;
  chat: Chat;
  link: InstanceLink;
  /** Its `chat` was started once: a restart needs a new one. */
  started: boolean;
}

/** An operation on one instance that does not apply to its current status. */
export class InstanceStateError extends Error {}

/**
 * The playground's bot: two instances ("A" and "B") of it, each a `Chat` of its own on the one
 * shared State, web adapter and timeline. A router (the adapter's host) gives each message to
 * one of them. Either can be killed (see {@link createInstanceLink}: its State connection, its
 * platform calls and its timers are cut), shut down gracefully, or restarted as a fresh `Chat`,
 * so the durable turns of the one that went away can be seen moving to the other.
 *
 * A change of strategy or lock scope restarts every running instance — a `Chat`'s concurrency
 * settings are fixed at construction — shutting them down together, so neither picks up the
 * turns the other hands back, then starting new ones that do. Changes and instance operations
 * are applied one at a time. The handler time is read at each run, so it needs no restart.
 */
export class BotRuntime {
  private readonly instances: Record<InstanceName, Instance>;
  private readonly router: InstanceRouter;
  private readonly lockTtlMs: number;
  private readonly sweepIntervalMs: number;
  private active: PlaygroundSettings;
  private deliverTo: DeliverTo = "alternate";
  private turn = 0;
  private applying: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: BotRuntimeOptions) {
    this.active = { ...options.settings };
    this.lockTtlMs = options.lockTtlMs ?? DEMO_LOCK_TTL_MS;
    this.sweepIntervalMs = options.sweepIntervalMs ?? DEMO_SWEEP_INTERVAL_MS;
    const now = Date.now();
    const instance = (name: InstanceName): Instance => ({
      name,
      status: "stopped",
      sinceMs: now,
      started: false,
      ...this.build(name, this.active),
    });
    this.instances = { A: instance("A"), B: instance("B") };
    const logger =
      typeof options.logger === "object"
        ? options.logger
        : new ConsoleLogger(options.logger ?? "error");
    this.router = new InstanceRouter(
      () => {
        const to = this.pick();
        return to && { chat: to.chat, adapter: to.link.adapter, died: to.link.died };
      },
      options.state,
      options.adapter.userName,
      logger,
    );
  }

  /** The settings in force. */
  get settings(): PlaygroundSettings {
    return { ...this.active };
  }

  /** The instances, their status and where messages go. */
  get view(): InstancesView {
    return {
      deliverTo: this.deliverTo,
      lockTtlMs: this.lockTtlMs,
      sweepIntervalMs: this.sweepIntervalMs,
      instances: INSTANCE_NAMES.map((name) => {
        const { status, sinceMs } = this.instances[name];
        return { name, status, sinceMs };
      }),
    };
  }

  /** Instance `name`'s current `Chat` and status. */
  instance(name: InstanceName): { readonly chat: Chat; readonly status: InstanceStatus } {
    const { chat, status } = this.instances[name];
    return { chat, status };
  }

  /** Makes the router the adapter's host and starts both instances. */
  async start(): Promise<void> {
    await this.options.adapter.initialize(this.router);
    await Promise.all(INSTANCE_NAMES.map((name) => this.launch(this.instances[name])));
  }

  /** Applies `next`, restarting the running instances when the strategy or lock scope changed. */
  apply(next: PlaygroundSettings): Promise<PlaygroundSettings> {
    return this.serially(async () => {
      const restart = needsRestart(this.active, next);
      this.active = { ...next };
      if (restart) {
        const running = this.all().filter((instance) => instance.status === "running");
        await Promise.all(running.map((instance) => this.shutDown(instance)));
        await Promise.all(running.map((instance) => this.launch(instance)));
        const { timeline } = this.options;
        timeline.mark(`bot restarted: ${next.strategy}, ${next.lockScope} scope`, Date.now());
      }
      return this.settings;
    });
  }

  /**
   * Kills instance `name` as SIGKILL would: no shutdown, no hand-back. Its lock leases lapse
   * within `lockTtlMs`, and the other instance's sweeper runs its turns again.
   */
  kill(name: InstanceName): Promise<InstancesView> {
    return this.serially(async () => {
      const instance = this.running(name, "kill");
      instance.link.kill();
      this.become(instance, "killed");
      this.options.timeline.note({
        kind: "instance",
        instance: name,
        change: "killed",
        atMs: Date.now(),
      });
      return this.view;
    });
  }

  /**
   * Shuts instance `name` down as a rolling deploy does: its running handlers see
   * `context.signal` abort and hand their turns back, for the other instance's next sweep.
   */
  shutdown(name: InstanceName): Promise<InstancesView> {
    return this.serially(async () => {
      const instance = this.running(name, "shut down");
      this.become(instance, "stopping");
      this.options.timeline.note({
        kind: "instance",
        instance: name,
        change: "shut down",
        atMs: Date.now(),
      });
      await this.shutDown(instance);
      return this.view;
    });
  }

  /** Starts a fresh `Chat` for a killed or stopped instance `name`, with the current settings. */
  restart(name: InstanceName): Promise<InstancesView> {
    return this.serially(async () => {
      const instance = this.instances[name];
      if (instance.status !== "killed" && instance.status !== "stopped") {
        throw new InstanceStateError(
          `instance ${name} is ${instance.status}; kill or shut it down first`,
        );
      }
      await this.launch(instance);
      this.options.timeline.note({
        kind: "instance",
        instance: name,
        change: "started",
        atMs: Date.now(),
      });
      return this.view;
    });
  }

  /** Sends new messages to `deliverTo`. */
  route(deliverTo: DeliverTo): InstancesView {
    this.deliverTo = deliverTo;
    this.options.onChange?.(this.view);
    return this.view;
  }

  /** Shuts the running instances down; killed ones are left as they are. */
  async stop(): Promise<void> {
    await this.applying;
    const running = this.all().filter((instance) => instance.status === "running");
    await Promise.all(running.map((instance) => this.shutDown(instance)));
  }

  /** The instance the next message goes to; `undefined` when none is running. */
  private pick(): Instance | undefined {
    const running = this.all().filter((instance) => instance.status === "running");
    const chosen = running.find((instance) => instance.name === this.deliverTo);
    if (chosen || running.length === 0) return chosen;
    const next = running[this.turn % running.length];
    this.turn += 1;
    return next;
  }

  private all(): Instance[] {
    return INSTANCE_NAMES.map((name) => this.instances[name]);
  }

  private running(name: InstanceName, what: string): Instance {
    const instance = this.instances[name];
    if (instance.status !== "running") {
      throw new InstanceStateError(`cannot ${what} instance ${name}: it is ${instance.status}`);
    }
    return instance;
  }

  private become(instance: Instance, status: InstanceStatus): void {
    if (instance.status === status) return;
    instance.status = status;
    instance.sinceMs = Date.now();
    this.options.onChange?.(this.view);
  }

  private async shutDown(instance: Instance): Promise<void> {
    this.become(instance, "stopping");
    await instance.chat.shutdown({ timeoutMs: SHUTDOWN_TIMEOUT_MS });
    this.become(instance, "stopped");
  }

  /** Replaces the instance's `Chat` with a fresh one (a new process) and starts it. */
  private async launch(instance: Instance): Promise<void> {
    if (instance.started) Object.assign(instance, this.build(instance.name, this.active));
    instance.started = true;
    await instance.chat.initialize();
    this.become(instance, "running");
  }

  private build(name: InstanceName, settings: PlaygroundSettings): Pick<Instance, "chat" | "link"> {
    const { adapter, state, timeline } = this.options;
    const link = createInstanceLink(state, adapter);
    const chat = new Chat({
      userName: adapter.userName,
      adapters: { web: link.adapter },
      state: link.state,
      clock: link.clock,
      concurrency: {
        strategy: settings.strategy,
        lockTtlMs: this.lockTtlMs,
        sweepIntervalMs: this.sweepIntervalMs,
      },
      lockScope: settings.lockScope,
      // Dropped and preempted messages are what the playground is for; as warnings they would
      // flood the terminal. The timeline shows them.
      logger: this.options.logger ?? "error",
      observer: link.observe(timeline.observerFor(name)),
    });
    registerDemoBot(chat, {
      handlerMs: () => this.active.handlerSeconds * 1_000,
      clock: link.clock,
      instance: name,
      onRunStart: (run) => {
        if (!link.alive) return;
        timeline.note({
          kind: "attempt",
          deliveryKey: run.deliveryKey,
          instance: name,
          attempt: run.attempt,
          ...(run.interrupted ? { interruptedReason: run.interrupted.reason } : {}),
          atMs: Date.now(),
        });
      },
    });
    return { chat, link };
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.applying.then(work);
    this.applying = run.catch(() => {});
    return run;
  }
}
