import {
  type Chat,
  type Clock,
  type Message,
  type MessageContext,
  sleep,
  systemClock,
  type Thread,
} from "@baton/core";

/** Options of {@link registerDemoBot}. */
export interface DemoBotOptions {
  /** How long a run "thinks", read at the start of every run so the page can change it live. */
  handlerMs(): number;
  clock?: Clock;
}

/**
 * The playground's bot: it answers mentions and direct messages, then follows the thread
 * (subscribed messages), "thinks" for the configured time — a stand-in for an AI call — and
 * says how many messages its run answered at once, listing those folded into `context.skipped`.
 * The wait honours `context.signal`: on shutdown or lease loss the run stops without posting.
 */
export function registerDemoBot(chat: Chat, options: DemoBotOptions): void {
  const clock = options.clock ?? systemClock;
  const answer = async (thread: Thread, message: Message, context: MessageContext) => {
    await thread.subscribe();
    const thinkMs = options.handlerMs();
    await thread.startTyping(`thinking for ${formatSeconds(thinkMs)}`);
    await sleep(clock, thinkMs, context.signal);
    await thread.post(describeRun(message, context.skipped, thinkMs));
  };
  chat.onDirectMessage(answer);
  chat.onNewMention(answer);
  chat.onSubscribedMessage(answer);
}

/**
 * The bot's reply, e.g. `Got 2 messages at once. Answering “three”; also read “two”.
 * (Thought for 2 s.)` — the count is `context.skipped.length + 1`.
 */
export function describeRun(
  message: Message,
  skipped: readonly Message[],
  thinkMs: number,
): string {
  const count = skipped.length + 1;
  const got = `Got ${count} ${count === 1 ? "message" : "messages"} at once.`;
  const also =
    skipped.length === 0 ? "" : `; also read ${skipped.map((m) => quote(m.text)).join(", ")}`;
  return `${got} Answering ${quote(message.text)}${also}. (Thought for ${formatSeconds(thinkMs)}.)`;
}

function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `“${short}”`;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1_000).toFixed(1))} s`;
}
