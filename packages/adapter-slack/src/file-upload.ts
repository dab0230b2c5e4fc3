import { Buffer } from "node:buffer";
import type { AdapterPostableMessage, FileUpload } from "@baton/core";
import type { SlackApi } from "./api.js";
import { slackApiError } from "./errors.js";

/** The files a postable message carries (none for strings and bare cards). */
export function slackFilesOf(message: AdapterPostableMessage): readonly FileUpload[] {
  if (typeof message !== "object" || message === null || !("files" in message)) return [];
  return message.files ?? [];
}

/** The message without its files, for rendering the text part. */
export function withoutFiles(message: AdapterPostableMessage): AdapterPostableMessage {
  if (typeof message !== "object" || message === null || !("files" in message)) return message;
  const { files: _files, ...rest } = message;
  return rest as AdapterPostableMessage;
}

async function bytesOf(data: FileUpload["data"]): Promise<Buffer> {
  if (data instanceof Blob) return Buffer.from(await data.arrayBuffer());
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Shares `files` in `channel` (in the thread when `threadTs` is set) with Slack's external upload
 * flow, run by WebClient's `filesUploadV2`: `files.getUploadURLExternal` per file, the upload,
 * then `files.completeUploadExternal`. Resolves with the ids Slack gave the files, in order;
 * rejects with a SlackApiError naming `files.uploadV2` when any step fails.
 */
export async function uploadSlackFiles(
  api: SlackApi,
  channel: string,
  threadTs: string,
  files: readonly FileUpload[],
): Promise<string[]> {
  const client = api.webClient;
  const fileUploads = await Promise.all(
    files.map(async (file) => ({ file: await bytesOf(file.data), filename: file.filename })),
  );
  let answer: Awaited<ReturnType<typeof client.filesUploadV2>>;
  try {
    answer = await client.filesUploadV2({
      channel_id: channel,
      ...(threadTs === "" ? {} : { thread_ts: threadTs }),
      file_uploads: fileUploads,
    } as Parameters<typeof client.filesUploadV2>[0]);
  } catch (error) {
    throw slackApiError("files.uploadV2", error);
  }
  // One completion per channel/thread/comment group, each listing its files.
  return answer.files.flatMap((completion) =>
    ((completion as { files?: Array<{ id?: string }> }).files ?? []).flatMap((file) =>
      file.id === undefined ? [] : [file.id],
    ),
  );
}
