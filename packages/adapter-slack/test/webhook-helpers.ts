import { afterEach } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** A Slack harness closed after the current test. */
export async function harness(...args: Parameters<typeof createSlackHarness>) {
  const created = await createSlackHarness(...args);
  harnesses.push(created);
  return created;
}

/** Every message the Chat's handlers saw, as "route thread: text". */
export function recordMessages(h: SlackHarness) {
  const seen: Array<{ route: string; threadId: string; text: string; isMention?: boolean }> = [];
  const push =
    (route: string) => (thread: { id: string }, message: { text: string; isMention?: boolean }) => {
      seen.push({ route, threadId: thread.id, text: message.text, isMention: message.isMention });
    };
  h.chat.onNewMention(push("mention"));
  h.chat.onDirectMessage(push("dm"));
  h.chat.onSubscribedMessage(push("subscribed"));
  h.chat.onNewMessage(/.*/, push("pattern"));
  return seen;
}
