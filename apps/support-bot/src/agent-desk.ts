import { type Chat, isBatonError, type Logger, type Message, type Thread } from "@baton/core";
import type { AgentCommand } from "./agent-command.js";
import { desk, replies } from "./replies.js";
import type { Agent, Takeover } from "./takeover.js";

/** What {@link runAgentCommand} needs. */
export interface AgentDeskOptions {
  readonly chat: Chat;
  readonly takeover: Takeover;
  readonly logger: Logger;
}

/** How many messages `/agent show` prints. */
const TRANSCRIPT_LENGTH = 10;

/**
 * Runs an agent's command, typed in `thread` (the agent is already known to be one). Without a
 * conversation id a command applies to `thread` itself — the way agents work where they share
 * the customer's thread (Slack, Teams); with one it applies to that conversation, which is how
 * an agent works from their own conversation with the bot (the web adapter gives every thread
 * one owner, so an agent can never write in a customer's web thread).
 */
export async function runAgentCommand(
  options: AgentDeskOptions,
  thread: Thread,
  message: Message,
  command: AgentCommand,
): Promise<void> {
  if (command.name === "help") {
    await thread.post(desk.usage);
    return;
  }
  const target = targetOf(options.chat, thread, command.target);
  if (!target) {
    await thread.post(desk.noSuchConversation(command.target ?? ""));
    return;
  }
  const agent = { userId: message.author.userId, name: nameOfAuthor(message) };
  switch (command.name) {
    case "take":
      return take(options, thread, target, agent);
    case "release":
      return release(options, thread, target);
    case "extend":
      return extend(options, thread, target);
    case "say":
      return say(options, thread, target, agent, command.text);
    case "show":
      return show(options, thread, target);
  }
}

async function take(
  { takeover }: AgentDeskOptions,
  thread: Thread,
  target: Thread,
  agent: Agent,
): Promise<void> {
  const here = target === thread;
  // An agent's own direct conversation with the bot is where they type commands: holding it
  // would queue their own later commands behind the hold.
  if (here && thread.isDM) {
    await thread.post(desk.ownConversation);
    return;
  }
  const result = await takeover.take(target, agent);
  if (result.outcome === "taken") {
    await target.post(replies.agentJoined(agent.name));
    if (!here) await thread.post(desk.taken(target.id, isoTime(result.handle.expiresAt)));
  } else if (result.outcome === "held") {
    await thread.post(desk.heldBy(target.id, result.by));
  } else {
    await thread.post(desk.busy(target.id));
  }
}

/**
 * Typed in the held conversation itself, this command cannot arrive while the hold lasts: the
 * hold is the thread lock, so the message waits in the queue like the customer's. It only runs
 * once the conversation is free again, and then finds nothing to release. Baton could let the
 * agent's messages through (`thread.hold({ ownerPasses: true })`), but this bot wants them in
 * the queue: after the hand-back it answers only what the customer wrote after the agent's
 * last message, and that needs the agent's messages in the same run.
 */
async function release(
  { takeover }: AgentDeskOptions,
  thread: Thread,
  target: Thread,
): Promise<void> {
  const result = await takeover.handBack(target.id);
  if (result === "not-held") await thread.post(desk.notHeld(target.id));
  else if (result === "already-ended") await thread.post(desk.alreadyEnded(target.id));
  // Handed back from elsewhere: confirm to the agent; in the thread itself the customer's
  // notice already says it.
  else if (target !== thread) await thread.post(desk.handedBack(target.id));
}

async function extend(
  { takeover }: AgentDeskOptions,
  thread: Thread,
  target: Thread,
): Promise<void> {
  const result = await takeover.extend(target.id);
  if (result.outcome === "extended") {
    await thread.post(desk.extended(target.id, isoTime(result.until)));
  } else if (result.outcome === "already-ended") {
    await thread.post(desk.alreadyEnded(target.id));
  } else {
    await thread.post(desk.notHeld(target.id));
  }
}

/**
 * Writes to the customer as the agent; only while held, so the agent and the assistant never
 * talk at once.
 */
async function say(
  { takeover }: AgentDeskOptions,
  thread: Thread,
  target: Thread,
  agent: Agent,
  text: string,
): Promise<void> {
  if (!(await takeover.record(target.id))) {
    await thread.post(desk.takeFirst(target.id));
    return;
  }
  await target.post(desk.agentSays(agent.name, text));
}

/** Shows the agent what the customer wrote: queued messages reach no handler while held. */
async function show({ logger }: AgentDeskOptions, thread: Thread, target: Thread): Promise<void> {
  const lines: string[] = [];
  try {
    for await (const message of target.messages) {
      const who = message.author.isMe ? "assistant" : nameOfAuthor(message);
      lines.push(`${who}: ${message.text}`);
      if (lines.length === TRANSCRIPT_LENGTH) break;
    }
  } catch (error) {
    logger.warn("reading a conversation for /agent show failed", { threadId: target.id, error });
  }
  // History pages come newest first; a transcript reads oldest first.
  await thread.post(desk.transcript(target.id, lines.reverse()));
}

/** The thread a command is about, or `undefined` when the id names no conversation here. */
function targetOf(chat: Chat, thread: Thread, id: string | undefined): Thread | undefined {
  if (id === undefined || id === thread.id) return thread;
  try {
    return chat.thread(id);
  } catch (error) {
    if (isBatonError(error, "VALIDATION_FAILED")) return undefined;
    throw error;
  }
}

function nameOfAuthor(message: Message): string {
  return message.author.fullName || message.author.userName || message.author.userId;
}

function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
