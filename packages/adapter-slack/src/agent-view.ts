import { Message, type StateAdapter } from "@baton/core";
import { encodeSlackThreadId, isSlackDMChannel } from "./thread-id.js";

/**
 * The thread of a DM message in Slack's agent view. There each top-level DM message starts a
 * conversation of its own (Slack shows it as a thread), so it is threaded under its own ts —
 * unless the bot follows the whole DM (`slack:{D…}:` subscribed, e.g. after `openDM`), which
 * keeps it conversation-scoped. `undefined` when the usual rule applies: no agent view, not a
 * DM, or a reply already in a thread.
 */
export async function agentViewThreadId(
  agentView: boolean,
  state: StateAdapter,
  channel: string,
  ts: string,
  threadTs: string | undefined,
): Promise<string | undefined> {
  if (!agentViewMayApply(agentView, channel, ts, threadTs)) return undefined;
  const conversation = encodeSlackThreadId({ channel, threadTs: "" });
  if (await state.isSubscribed(conversation)) return undefined;
  return encodeSlackThreadId({ channel, threadTs: ts });
}

/**
 * False when {@link agentViewThreadId} is `undefined` without asking the State (no agent view,
 * not a DM, a reply): the webhook path then skips the call and its `await`.
 */
export function agentViewMayApply(
  agentView: boolean,
  channel: string,
  ts: string,
  threadTs: string | undefined,
): boolean {
  return agentView && !threadTs && ts !== "" && isSlackDMChannel(channel);
}

/** `message` moved to `threadId`, every other field kept. */
export function inThread(message: Message, threadId: string): Message {
  return new Message({ ...message, formatted: message.formatted, threadId });
}
