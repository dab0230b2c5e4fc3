import { Message } from "../model/message.js";
import { type SubjectSource, setMessageAdapter } from "../model/message-subject.js";
import { adapterNameOf } from "../thread-id/index.js";
import { ChannelImpl } from "./channel.js";
import { singletonBindingFor } from "./chat-singleton.js";
import type { BindingSource } from "./runtime-binding.js";
import {
  CHANNEL_JSON_TYPE,
  MESSAGE_JSON_TYPE,
  revivedChannelInit,
  revivedThreadInit,
  type SerializedChannel,
  type SerializedThread,
  THREAD_JSON_TYPE,
} from "./serialization.js";
import { ThreadImpl } from "./thread.js";

/** The second argument of `JSON.parse`. */
export type JsonReviver = (key: string, value: unknown) => unknown;

/**
 * A `JSON.parse` reviver that turns Baton's JSON forms back into objects: `baton:Thread` into a
 * `ThreadImpl`, `baton:Channel` into a `ChannelImpl`, `baton:Message` into a `Message`; every
 * other value is returned unchanged. Threads and channels are bound to `source` (a Chat) — or,
 * without one, to the Chat singleton — on first use, so parsing never fails for a missing
 * adapter; using the handle does. A revived message loads its `subject` through its adapter.
 * A value tagged as Baton's but malformed throws a `ValidationError` naming the field.
 */
export function createReviver(source?: BindingSource): JsonReviver {
  const subjectSource = (threadId: string) => (): SubjectSource | undefined => {
    try {
      const name = adapterNameOf(threadId);
      return (source ? source.bindingFor(name) : singletonBindingFor(name))
        .adapter as SubjectSource;
    } catch {
      return undefined;
    }
  };
  return (_key, value) => {
    if (typeof value !== "object" || value === null) return value;
    switch ((value as { _type?: unknown })._type) {
      case THREAD_JSON_TYPE:
        return new ThreadImpl(revivedThreadInit(value as SerializedThread, undefined, source));
      case CHANNEL_JSON_TYPE:
        return new ChannelImpl(revivedChannelInit(value as SerializedChannel, undefined, source));
      case MESSAGE_JSON_TYPE: {
        const message = Message.fromJSON(value as Parameters<typeof Message.fromJSON>[0]);
        setMessageAdapter(message, subjectSource(message.threadId));
        return message;
      }
      default:
        return value;
    }
  };
}

/**
 * The standalone reviver: like `chat.reviver()`, bound to the Chat singleton
 * (`chat.registerSingleton()`) when a revived handle is first used. Pass it directly:
 * `JSON.parse(text, reviver)`.
 */
export const reviver: JsonReviver = createReviver();
