import type { Clock, RawMessage, StreamChunk } from "@baton/core";
import type { TeamsApi, TeamsOutboundActivity } from "./api.js";

/** What a Teams stream needs from the adapter, bound to one conversation. */
export interface TeamsStreamTarget {
  readonly api: TeamsApi;
  readonly clock: Clock;
  /** Least time between two updates, in ms (Teams throttles to about one a second). */
  readonly updateIntervalMs: number;
  readonly serviceUrl: string;
  readonly conversationId: string;
  readonly threadId: string;
  /** The final message for the complete text (the adapter's normal post formatting). */
  finalActivity(text: string): TeamsOutboundActivity;
}

/**
 * Reads text chunks (structured chunks are skipped: Teams has no task or plan view) and calls
 * `update` with the whole text so far: at once for the first text, then no sooner than
 * `intervalMs` after the previous update, so chunks in between are coalesced. Resolves with the
 * complete text; a failing source rejects with its error after `onError` saw the text so far.
 */
async function pacedText(
  source: AsyncIterable<string | StreamChunk>,
  clock: Clock,
  intervalMs: number,
  update: (text: string) => Promise<void>,
): Promise<{ text: string; shown: string; error?: unknown; failed: boolean }> {
  let text = "";
  let shown = "";
  let lastAtMs = Number.NEGATIVE_INFINITY;
  try {
    for await (const chunk of source) {
      if (typeof chunk !== "string" || chunk === "") continue;
      text += chunk;
      if (clock.now() - lastAtMs >= intervalMs) {
        await update(text);
        shown = text;
        lastAtMs = clock.now();
      }
    }
  } catch (error) {
    return { text, shown, error, failed: true };
  }
  return { text, shown, failed: false };
}

function streamInfo(entity: Record<string, unknown>): TeamsOutboundActivity["entities"] {
  return [{ type: "streaminfo", ...entity }] as never;
}

/**
 * Teams' streaming protocol in a personal chat: `typing` activities with a `streaminfo` entity
 * (`streamType: "streaming"`, `streamSequence` 1, 2, … and, after the first, the `streamId` the
 * first one was given), each with the whole text so far, then a `message` with
 * `streamType: "final"` and the complete text. A source that fails midway still gets its final
 * message (with the text so far) so the chat does not stay in the streaming state; then the
 * error is rethrown.
 */
export async function streamTeamsNatively(
  target: TeamsStreamTarget,
  source: AsyncIterable<string | StreamChunk>,
): Promise<RawMessage> {
  const { api, serviceUrl, conversationId } = target;
  let streamId: string | undefined;
  let sequence = 0;
  const result = await pacedText(source, target.clock, target.updateIntervalMs, async (text) => {
    sequence += 1;
    const activity = {
      type: "typing",
      text,
      entities: streamInfo({
        streamType: "streaming",
        streamSequence: sequence,
        ...(streamId === undefined ? {} : { streamId }),
      }),
    } as TeamsOutboundActivity;
    const sent = await api.send(serviceUrl, conversationId, activity);
    streamId ??= sent.id;
  });
  const base = target.finalActivity(result.text);
  const final = {
    ...base,
    entities: [
      ...(base.entities ?? []),
      ...(streamInfo({ streamType: "final", ...(streamId === undefined ? {} : { streamId }) }) ??
        []),
    ],
  } as TeamsOutboundActivity;
  if (result.failed && result.text === "") throw result.error;
  const sent = await api.send(serviceUrl, conversationId, final);
  if (result.failed) throw result.error;
  return { id: streamId ?? sent.id, threadId: target.threadId, raw: sent };
}
