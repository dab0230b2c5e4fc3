import type { Adapter, RawMessage } from "../contracts/adapter.js";
import type { Logger } from "../contracts/logger.js";
import { callAdapter } from "./adapter-call.js";

/** Marks an object `thread.post` hands to the object's own protocol instead of posting text. */
export const POSTABLE_OBJECT: unique symbol = Symbol.for("baton.postable");

/** Where a postable object was posted, handed to its `onPosted`. */
export interface PostedObjectContext {
  readonly adapter: Adapter;
  readonly logger: Logger;
  /** The platform's id of the message that shows the object. */
  readonly messageId: string;
  /** The thread the platform reported for it. */
  readonly threadId: string;
}

/**
 * Something `post()` posts and that keeps updating itself afterwards (upstream's
 * `PostableObject`), such as a {@link Plan}. An adapter that has `postObject` and `editObject`
 * shows it natively (`isSupported`); elsewhere its fallback text is posted and then edited.
 */
export interface PostableObject {
  readonly $$typeof: typeof POSTABLE_OBJECT;
  /** The kind the adapter's `postObject(threadId, kind, data)` receives, e.g. `"plan"`. */
  readonly kind: string;
  /** True when `adapter` shows this kind natively. */
  isSupported(adapter: Adapter): boolean;
  /** The data for `postObject` / `editObject`. */
  getPostData(): unknown;
  /** The text posted (and edited) where the adapter cannot show the object. */
  getFallbackText(): string;
  /** Binds the object to the message that shows it, so later updates edit that message. */
  onPosted(context: PostedObjectContext): void;
}

/** True for a {@link PostableObject}. */
export function isPostableObject(value: unknown): value is PostableObject {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { $$typeof?: unknown }).$$typeof === POSTABLE_OBJECT
  );
}

/**
 * Posts `object` to `targetId`: natively through `adapter.postObject` where it is supported, else
 * its fallback text through `postText` (a thread's `postMessage`, a channel's
 * `postChannelMessage`), then binds it to the posted message. Resolves with the object itself.
 */
export async function postPostableObject<T extends PostableObject>(
  object: T,
  adapter: Adapter,
  targetId: string,
  postText: (text: string) => Promise<RawMessage>,
  logger: Logger,
): Promise<T> {
  const step = `post ${object.kind} to ${targetId}`;
  const { postObject } = adapter;
  const native = object.isSupported(adapter) && typeof postObject === "function";
  const sent = await callAdapter(
    adapter,
    step,
    () =>
      native
        ? postObject.call(adapter, targetId, object.kind, object.getPostData())
        : postText(object.getFallbackText()),
    logger,
  );
  object.onPosted({ adapter, logger, messageId: sent.id, threadId: sent.threadId || targetId });
  return object;
}
