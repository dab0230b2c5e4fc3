import type { Adapter } from "../contracts/adapter.js";
import type { ChannelVisibility } from "../contracts/thread-surface-types.js";
import { ValidationError } from "../errors/index.js";
import { Message, type SerializedMessage } from "../model/message.js";
import { adapterNameOf } from "../thread-id/index.js";
import { singletonBindingFor } from "./chat-singleton.js";
import { type BindingSource, LazyBinding } from "./runtime-binding.js";

/** The `_type` tag of a serialized thread (Baton's tag, not upstream's `chat:Thread`: ADR 0003). */
export const THREAD_JSON_TYPE = "baton:Thread";

/** The `_type` tag of a serialized channel. */
export const CHANNEL_JSON_TYPE = "baton:Channel";

/** The `_type` tag of a serialized message. */
export const MESSAGE_JSON_TYPE = "baton:Message";

/**
 * The JSON form of a thread handle: enough to rebuild it in another process and bind it to that
 * process's adapter and State. Holds no State data: thread state stays in the State.
 */
export interface SerializedThread {
  _type: typeof THREAD_JSON_TYPE;
  id: string;
  channelId: string;
  /** Absent in JSON written before it existed; revived as `"unknown"`. */
  channelVisibility?: ChannelVisibility;
  /** The message being handled when the handle was serialized, if any. */
  currentMessage?: SerializedMessage;
  isDM: boolean;
  /** The adapter the thread belongs to; equals the prefix of `id`. */
  adapterName: string;
}

/** The JSON form of a channel handle. */
export interface SerializedChannel {
  _type: typeof CHANNEL_JSON_TYPE;
  id: string;
  adapterName: string;
  channelVisibility?: ChannelVisibility;
  isDM: boolean;
}

const VISIBILITIES: readonly string[] = ["private", "workspace", "public", "external", "unknown"];

/**
 * Checks a value claimed to be a serialized thread; throws a `ValidationError` naming the first
 * bad field, so a corrupt queue entry is reported where it is read.
 */
export function assertSerializedThread(value: unknown): asserts value is SerializedThread {
  const json = assertTagged(value, THREAD_JSON_TYPE, "thread");
  const fail = failer("thread");
  for (const field of ["id", "channelId", "adapterName"] as const) {
    if (typeof json[field] !== "string" || json[field] === "")
      fail(`${field} must be a non-empty string`);
  }
  if (adapterNameOf(json.id as string) !== json.adapterName) {
    fail(
      `id ${JSON.stringify(json.id)} does not belong to adapter ${JSON.stringify(json.adapterName)}`,
    );
  }
  checkCommon(json, fail);
  if (
    json.currentMessage !== undefined &&
    (typeof json.currentMessage !== "object" || json.currentMessage === null)
  ) {
    fail("currentMessage must be a serialized message");
  }
}

/** Checks a value claimed to be a serialized channel, like {@link assertSerializedThread}. */
export function assertSerializedChannel(value: unknown): asserts value is SerializedChannel {
  const json = assertTagged(value, CHANNEL_JSON_TYPE, "channel");
  const fail = failer("channel");
  for (const field of ["id", "adapterName"] as const) {
    if (typeof json[field] !== "string" || json[field] === "")
      fail(`${field} must be a non-empty string`);
  }
  checkCommon(json, fail);
}

function checkCommon(json: Record<string, unknown>, fail: (problem: string) => never): void {
  if (json.isDM !== undefined && typeof json.isDM !== "boolean") fail("isDM must be a boolean");
  const visibility = json.channelVisibility;
  if (
    visibility !== undefined &&
    (typeof visibility !== "string" || !VISIBILITIES.includes(visibility))
  ) {
    fail(
      `channelVisibility must be one of ${VISIBILITIES.join(", ")}, got ${JSON.stringify(visibility)}`,
    );
  }
}

function assertTagged(value: unknown, tag: string, what: string): Record<string, unknown> {
  const fail = failer(what);
  if (typeof value !== "object" || value === null) fail("expected an object");
  const json = value as Record<string, unknown>;
  if (json._type !== tag)
    fail(`_type must be ${JSON.stringify(tag)}, got ${JSON.stringify(json._type)}`);
  return json;
}

function failer(what: string): (problem: string) => never {
  return (problem) => {
    throw new ValidationError(problem, { step: `deserialize ${what}` });
  };
}

/** True when `value` is an object carrying `_type: tag` (a cheap test for revivers). */
export function hasJsonType(value: unknown, tag: string): boolean {
  return (
    typeof value === "object" && value !== null && (value as { _type?: unknown })._type === tag
  );
}

/** What a handle revived from JSON is built from (see `ThreadImpl.fromJSON`). */
export interface RevivedThreadInit {
  readonly revived: true;
  readonly binding: LazyBinding;
  readonly threadId: string;
  readonly channelId: string;
  readonly isDM: boolean;
  readonly channelVisibility: ChannelVisibility;
  readonly initialMessage: Message | undefined;
}

/** What a channel handle revived from JSON is built from. */
export interface RevivedChannelInit {
  readonly revived: true;
  readonly binding: LazyBinding;
  readonly adapterName: string;
  readonly channelId: string;
  readonly isDM: boolean;
  readonly channelVisibility: ChannelVisibility;
}

/**
 * Where a revived handle finds its adapter and State: the given source (a Chat's `reviver()`), or
 * the process's Chat singleton, looked up when the handle is first used, not now.
 */
export function bindingForRevival(
  adapterName: string,
  adapter?: Adapter,
  source?: BindingSource,
): LazyBinding {
  const resolve = source
    ? () => source.bindingFor(adapterName)
    : () => singletonBindingFor(adapterName);
  return LazyBinding.deferred(resolve, adapter);
}

/** Checks `json` and turns it into the init of a lazily bound thread. */
export function revivedThreadInit(
  json: SerializedThread,
  adapter?: Adapter,
  source?: BindingSource,
): RevivedThreadInit {
  assertSerializedThread(json);
  if (adapter !== undefined && adapter.name !== json.adapterName) {
    throw new ValidationError(
      `adapter "${adapter.name}" cannot revive a thread of adapter "${json.adapterName}"`,
      { step: "deserialize thread" },
    );
  }
  return {
    revived: true,
    binding: bindingForRevival(json.adapterName, adapter, source),
    threadId: json.id,
    channelId: json.channelId,
    isDM: json.isDM ?? false,
    channelVisibility: json.channelVisibility ?? "unknown",
    initialMessage: reviveMessage(json.currentMessage),
  };
}

/** Checks `json` and turns it into the init of a lazily bound channel. */
export function revivedChannelInit(
  json: SerializedChannel,
  adapter?: Adapter,
  source?: BindingSource,
): RevivedChannelInit {
  assertSerializedChannel(json);
  return {
    revived: true,
    binding: bindingForRevival(json.adapterName, adapter, source),
    adapterName: json.adapterName,
    channelId: json.id,
    isDM: json.isDM ?? false,
    channelVisibility: json.channelVisibility ?? "unknown",
  };
}

/**
 * A nested serialized message as a Message. `JSON.parse` revivers see inner values first, so a
 * nested message may already be a `Message` by the time its container is revived.
 */
function reviveMessage(value: SerializedMessage | Message | undefined): Message | undefined {
  if (value === undefined || value instanceof Message) return value;
  return Message.fromJSON(value);
}
