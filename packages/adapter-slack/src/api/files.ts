import { Buffer } from "node:buffer";
import { slackApiError } from "../errors.js";
import { type SlackApiTarget, slackClientFor } from "./call.js";
import type { SlackApiBlock } from "./messages.js";

/** One file to upload: its bytes and the name Slack shows. */
export interface SlackUploadFile {
  readonly data: Uint8Array;
  readonly filename: string;
  readonly title?: string;
  readonly altText?: string;
}

/** Where {@link uploadSlackFiles} shares the files. */
export interface UploadSlackFilesOptions extends SlackApiTarget {
  readonly channelId: string;
  /** Shares them as a reply in this thread. */
  readonly threadTs?: string;
  /** A message posted with the files. */
  readonly initialComment?: string;
}

/**
 * Uploads files with Slack's external upload flow (`files.getUploadURLExternal`, the upload, then
 * `files.completeUploadExternal`), run by WebClient's `filesUploadV2`. Resolves with the ids
 * Slack gave the files.
 */
export async function uploadSlackFiles(
  files: readonly SlackUploadFile[],
  options: UploadSlackFilesOptions,
): Promise<{ readonly fileIds: readonly string[] }> {
  const client = await slackClientFor(options);
  const fileUploads = files.map((file) => ({
    file: Buffer.from(file.data),
    filename: file.filename,
    ...(file.title === undefined ? {} : { title: file.title }),
    ...(file.altText === undefined ? {} : { alt_text: file.altText }),
  }));
  let answer: Awaited<ReturnType<typeof client.filesUploadV2>>;
  try {
    answer = await client.filesUploadV2({
      channel_id: options.channelId,
      ...(options.threadTs === undefined ? {} : { thread_ts: options.threadTs }),
      ...(options.initialComment === undefined ? {} : { initial_comment: options.initialComment }),
      file_uploads: fileUploads,
    } as Parameters<typeof client.filesUploadV2>[0]);
  } catch (error) {
    throw slackApiError("files.uploadV2", error);
  }
  const fileIds = answer.files.flatMap((completion) =>
    (completion.files ?? []).flatMap((file) => (typeof file.id === "string" ? [file.id] : [])),
  );
  return { fileIds };
}

/** What {@link fetchSlackFile} downloads. */
export interface FetchSlackFileOptions {
  /** The file's `url_private` or `url_private_download`. */
  readonly url: string;
  readonly token: string | (() => string | Promise<string>);
  /** Also sends the token to this origin (a Slack GovSlack or test origin), beyond files.slack.com. */
  readonly apiUrl?: string;
  readonly fetch?: typeof globalThis.fetch;
}

function sendsToken(url: URL, apiUrl: string | undefined): boolean {
  if (url.username !== "" || url.password !== "") return false;
  if (url.protocol === "https:" && url.hostname === "files.slack.com") return true;
  if (apiUrl === undefined) return false;
  const api = new URL(apiUrl);
  return url.protocol === api.protocol && url.host === api.host;
}

/**
 * Downloads a private Slack file. The bot token goes only to `https://files.slack.com` (or the
 * `apiUrl` origin); any other URL is fetched without it, so a link in a message cannot collect
 * the token. Resolves with the response as is: the caller reads the body and checks `ok`.
 */
export async function fetchSlackFile(options: FetchSlackFileOptions): Promise<Response> {
  const fetcher = options.fetch ?? globalThis.fetch;
  if (!sendsToken(new URL(options.url), options.apiUrl)) {
    return fetcher(options.url, { headers: undefined });
  }
  const token = typeof options.token === "function" ? await options.token() : options.token;
  return fetcher(options.url, { headers: { authorization: `Bearer ${token}` } });
}

/** A reply through an interaction's `response_url` (Slack takes it for 30 minutes, 5 times). */
export interface SlackResponseUrlMessage {
  readonly text?: string;
  readonly blocks?: readonly SlackApiBlock[];
  /** `in_channel` shows it to everyone; Slack's default is `ephemeral`. */
  readonly responseType?: "ephemeral" | "in_channel";
  readonly replaceOriginal?: boolean;
  readonly deleteOriginal?: boolean;
  readonly threadTs?: string;
}

/**
 * Posts `message` as JSON to an interaction's `response_url` (not a Web API method: Slack's
 * libraries have no client for it). Rejects with a `SlackApiError` when Slack does not answer 2xx.
 */
export async function sendSlackResponseUrl(
  responseUrl: string,
  message: SlackResponseUrlMessage,
  options: { readonly fetch?: typeof globalThis.fetch } = {},
): Promise<void> {
  const body = {
    text: message.text,
    blocks: message.blocks,
    response_type: message.responseType,
    replace_original: message.replaceOriginal,
    delete_original: message.deleteOriginal,
    thread_ts: message.threadTs,
  };
  const fetcher = options.fetch ?? globalThis.fetch;
  const response = await fetcher(responseUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw slackApiError("response_url", new Error(`response_url answered ${response.status}`));
  }
}
