import type { FetchDirection } from "../contracts/adapter.js";
import { ValidationError } from "../errors/index.js";
import type { Message } from "../model/message.js";
import type { Thread } from "../runtime/thread-interface.js";
import { projectMessage } from "./project-message.js";
import type { MessagePage } from "./thread-tools.js";

/**
 * One page of the history the runtime keeps for a platform without a history API
 * (`persistThreadHistory`), read through `thread.messages` / `thread.allMessages` so it is the
 * same history handlers see. The list is bounded, so its cursor is simply how many messages
 * earlier pages covered; the page is oldest first, as the adapter path returns it.
 */
export async function persistedPage(
  thread: Thread,
  request: { limit: number; direction: FetchDirection; cursor: string | undefined },
  step: string,
): Promise<MessagePage> {
  const offset = request.cursor === undefined ? 0 : Number(request.cursor);
  if (!Number.isInteger(offset) || offset < 0) {
    throw new ValidationError(
      `cursor must be a nextCursor from an earlier fetchMessages call, got ${JSON.stringify(request.cursor)}`,
      { step },
    );
  }
  const walk = request.direction === "forward" ? thread.allMessages : thread.messages;
  const taken: Message[] = [];
  let seen = 0;
  let more = false;
  for await (const message of walk) {
    seen += 1;
    if (seen <= offset) continue;
    if (taken.length === request.limit) {
      more = true;
      break;
    }
    taken.push(message);
  }
  const page = request.direction === "backward" ? taken.reverse() : taken;
  return {
    messages: page.map(projectMessage),
    nextCursor: more ? String(offset + request.limit) : undefined,
  };
}
