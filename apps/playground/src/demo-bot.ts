import {
  type Chat,
  type Clock,
  type Message,
  type MessageContext,
  sleep,
  systemClock,
  type Thread,
} from "@baton/core";

/** What interrupted a turn's previous run (core does not export its name for this type). */
export type TurnInterruption = NonNullable<MessageContext["interrupted"]>;

/** What a run tells the playground when it starts, for the timeline. */
export interface DemoRunStart {
  /** `{adapter}:{message id}` of the message the run answers, as in dispatch events. */
  deliveryKey: string;
  attempt: number;
  interrupted?: TurnInterruption;
}

/** Options of {@link registerDemoBot}. */
export interface DemoBotOptions {
  /** How long a run "thinks", read at the start of every run so the page can change it live. */
  handlerMs(): number;
  clock?: Clock;
  /** The instance the handlers run on ("A", "B"), named in the answers. */
  instance?: string;
  /** Called as each run starts, with its attempt (durable turns). */
  onRunStart?(run: DemoRunStart): void;
}

/**
 * The playground's bot: it answers mentions and direct messages, then follows the thread
 * (subscribed messages), "thinks" for the configured time — a stand-in for an AI call — and
 * says how many messages its run answered at once, listing those folded into `context.skipped`.
 * The wait honours `context.signal`: on shutdown or lease loss the run stops without posting (and
 * its turn is handed back). A run that picks up an interrupted turn (`context.interrupted`) says
 * so in its answer, as docs/durable-turns.md §6 recommends.
 */
export function registerDemoBot(chat: Chat, options: DemoBotOptions): void {
  const clock = options.clock ?? systemClock;
  const answer = async (thread: Thread, message: Message, context: MessageContext) => {
    options.onRunStart?.({
      deliveryKey: `${thread.adapter.name}:${message.id}`,
      attempt: context.attempt,
      ...(context.interrupted ? { interrupted: context.interrupted } : {}),
    });
    await thread.subscribe();
    const thinkMs = options.handlerMs();
    await thread.startTyping(`thinking for ${formatSeconds(thinkMs)}`);
    await sleep(clock, thinkMs, context.signal);
    const run = describeRun(message, context.skipped, thinkMs, options.instance);
    const again = context.interrupted ? `${describeInterruption(context.interrupted)} ` : "";
    await thread.post(`${again}${run}`);
  };
  chat.onDirectMessage(answer);
  chat.onNewMention(answer);
  chat.onSubscribedMessage(answer);
}

/**
 * The bot's reply, e.g. `Got 2 messages at once. Answering “three”; also read “two”.
 * (Thought for 2 s on instance A.)` — the count is `context.skipped.length + 1`.
 */
export function describeRun(
  message: Message,
  skipped: readonly Message[],
  thinkMs: number,
  instance?: string,
): string {
  const count = skipped.length + 1;
  const got = `Got ${count} ${count === 1 ? "message" : "messages"} at once.`;
  const also =
    skipped.length === 0 ? "" : `; also read ${skipped.map((m) => quote(m.text)).join(", ")}`;
  const where = instance === undefined ? "" : ` on instance ${instance}`;
  return `${got} Answering ${quote(message.text)}${also}. (Thought for ${formatSeconds(thinkMs)}${where}.)`;
}

/** What went before a run of an interrupted turn, in the words of the answer. */
export function describeInterruption(interrupted: TurnInterruption): string {
  const why = {
    "lease-expired": "the instance answering stopped, and its lease on the lock expired",
    shutdown: "the instance answering shut down and handed the turn back",
    "lease-lost": "the instance answering lost its lease on the lock",
  }[interrupted.reason];
  return `I was interrupted — here is my answer again (attempt ${interrupted.attempt + 1}: ${why}).`;
}

function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `“${short}”`;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1_000).toFixed(1))} s`;
}
