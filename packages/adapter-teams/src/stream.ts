import {
  type Clock,
  chunkText,
  type RawMessage,
  type StreamChunk,
  type StreamOptions,
} from "@baton/core";
import type { TeamsApi, TeamsOutboundActivity } from "./api.js";
import type { TeamsFormatConverter } from "./format.js";
import { activityForPost } from "./post.js";
import { decodeTeamsThreadId } from "./thread-id.js";

/** Teams throttles bot updates to about one a second. */
export const TEAMS_STREAM_INTERVAL_MS = 1_000;

/** The options of `TeamsAdapter.stream`: the core's, and upstream's placeholder. */
export interface TeamsStreamOptions extends StreamOptions {
  /**
   * The Chat's explicit placeholder (upstream passes `fallbackStreamingPlaceholderText` when it
   * was configured): an informative update in personal chats; elsewhere it hands the stream
   * back to the core's post + edit. `null` or absent: none.
   */
  fallbackStreamingPlaceholderText?: string | null;
}

/** What a Teams stream needs from the adapter, bound to one conversation. */
export interface TeamsStreamTarget {
  readonly api: TeamsApi;
  readonly clock: Clock;
  /** Least time between two updates, in ms (Teams throttles to about one a second). */
  updateIntervalMs: number;
  readonly serviceUrl: string;
  readonly conversationId: string;
  readonly threadId: string;
  /** The final message for the complete text (the adapter's normal post formatting). */
  finalActivity(text: string): TeamsOutboundActivity;
}

/** The stream target of a thread: its conversation, at Teams' default pace. */
export function teamsStreamTarget(
  api: TeamsApi,
  clock: Clock,
  converter: TeamsFormatConverter,
  threadId: string,
): TeamsStreamTarget {
  const { conversationId, serviceUrl } = decodeTeamsThreadId(threadId);
  return {
    api,
    clock,
    updateIntervalMs: TEAMS_STREAM_INTERVAL_MS,
    serviceUrl,
    conversationId,
    threadId,
    finalActivity: (text) => activityForPost({ markdown: text }, converter),
  };
}

/** The `streamType` of one activity of Teams' streaming protocol. */
export type TeamsStreamType = "informative" | "streaming" | "final";

/**
 * The stream fields of one activity, twice: as the `streaminfo` entity Microsoft's REST
 * documentation defines, and in `channelData`, where Microsoft's Teams SDK (`HttpStream`, which
 * upstream streams through) sends the same fields too. `streamSequence` is left out of the
 * final message, as the REST documentation requires.
 */
export function streamFields(
  streamType: TeamsStreamType,
  streamSequence: number | undefined,
  streamId: string | undefined,
): Pick<TeamsOutboundActivity, "entities" | "channelData"> {
  const info = {
    streamType,
    ...(streamSequence === undefined ? {} : { streamSequence }),
    ...(streamId === undefined ? {} : { streamId }),
  };
  return { entities: [{ type: "streaminfo", ...info }] as never, channelData: info as never };
}

/**
 * What a structured chunk says while no answer text exists yet: a plan's title, or the title of
 * a task that is pending or running (Teams' informative update, "Searching documents…").
 * Finished tasks and everything after the first text say nothing: Teams shows informative
 * updates only before the answer starts.
 */
export function statusOf(chunk: string | StreamChunk): string | undefined {
  if (typeof chunk === "string") return undefined;
  if (chunk.type === "plan_update") return chunk.title || undefined;
  if (
    chunk.type === "task_update" &&
    (chunk.status === "pending" || chunk.status === "in_progress")
  )
    return chunk.title || undefined;
  return undefined;
}

/** One stream's protocol state: the id Teams gave the first activity, and the sequence so far. */
class TeamsStreamSession {
  streamId: string | undefined;
  private sequence = 0;
  private lastAtMs = Number.NEGATIVE_INFINITY;
  /** What the user sees now: the answer text, or the informative text before it. */
  shown = "";

  constructor(private readonly target: TeamsStreamTarget) {}

  /** True once `updateIntervalMs` has passed since the previous update. */
  due(): boolean {
    return this.target.clock.now() - this.lastAtMs >= this.target.updateIntervalMs;
  }

  /** Sends one `typing` update (informative or streaming) with the whole text so far. */
  async update(streamType: "informative" | "streaming", text: string): Promise<void> {
    const { api, serviceUrl, conversationId, clock } = this.target;
    this.sequence += 1;
    const activity = {
      type: "typing",
      text,
      ...streamFields(streamType, this.sequence, this.streamId),
    } as TeamsOutboundActivity;
    const sent = await api.send(serviceUrl, conversationId, activity);
    this.streamId ??= sent.id;
    this.shown = text;
    this.lastAtMs = clock.now();
  }

  /** The final `message` for `text`, closing the stream the first update opened. */
  async finish(text: string) {
    const { api, serviceUrl, conversationId } = this.target;
    const base = this.target.finalActivity(text);
    const fields = streamFields("final", undefined, this.streamId);
    const final = {
      ...base,
      entities: [...(base.entities ?? []), ...(fields.entities ?? [])],
      channelData: { ...(base.channelData ?? {}), ...fields.channelData },
    } as TeamsOutboundActivity;
    return api.send(serviceUrl, conversationId, final);
  }
}

/**
 * Teams' streaming protocol in a personal chat: `typing` activities with a `streaminfo` entity
 * (`streamSequence` 1, 2, … and, after the first, the `streamId` the first one was given) —
 * `informative` ones (`status`, then the status of plan and task chunks) until the answer's
 * first text, then `streaming` ones with the whole text so far — and a final `message` with
 * `streamType: "final"` and the complete text. Updates come at most one per `updateIntervalMs`
 * on the target's clock; chunks in between are coalesced. A source that fails midway still gets
 * its final message (with the text so far) so the chat does not stay in the streaming state;
 * then the error is rethrown. Resolves with the message, whose id is the `streamId`.
 */
export async function streamTeamsNatively(
  target: TeamsStreamTarget,
  source: AsyncIterable<string | StreamChunk>,
  status?: string,
): Promise<RawMessage> {
  const session = new TeamsStreamSession(target);
  if (status !== undefined && status !== "") await session.update("informative", status);
  let text = "";
  let pendingStatus: string | undefined;
  let failure: { error: unknown } | undefined;
  try {
    for await (const chunk of source) {
      text += chunkText(chunk);
      if (text === "") pendingStatus = statusOf(chunk) ?? pendingStatus;
      if (!session.due()) continue;
      if (text !== "" && text !== session.shown) await session.update("streaming", text);
      else if (text === "" && pendingStatus !== undefined && pendingStatus !== session.shown) {
        await session.update("informative", pendingStatus);
      }
    }
  } catch (error) {
    failure = { error };
  }
  // Teams refuses a final message without text: a stream that failed before any answer ends here.
  if (failure !== undefined && text === "") throw failure.error;
  const sent = await session.finish(text);
  if (failure !== undefined) throw failure.error;
  return { id: session.streamId ?? sent.id, threadId: target.threadId, raw: sent };
}
