import type { IncomingMessage, ServerResponse } from "node:http";
import type { FakeSlackStore } from "./fake-slack-store.js";

type Args = Record<string, unknown>;

/** Raised for Slack's `{ ok: false, error }` answers of the file methods. */
class FileMethodError extends Error {
  constructor(readonly slackError: string) {
    super(slackError);
  }
}

function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value === "") throw new FileMethodError("invalid_arguments");
  return value;
}

function listOf(value: unknown): Record<string, unknown>[] {
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? (parsed as Record<string, unknown>[]) : [];
}

/**
 * Slack's external upload flow: `files.getUploadURLExternal` hands out an upload URL on the fake
 * (`{origin}/upload/{fileId}`), `files.completeUploadExternal` shares files whose bytes arrived
 * there. Completing a file that was never uploaded fails, as on Slack.
 */
export const FAKE_SLACK_FILE_METHODS = {
  "files.getUploadURLExternal": (store: FakeSlackStore, args: Args) => {
    const filename = text(args, "filename");
    const length = Number(args.length);
    if (!Number.isInteger(length) || length < 1) throw new FileMethodError("invalid_arguments");
    const id = store.nextId("F");
    store.files.set(id, { id, filename, length, completed: false });
    return { ok: true, upload_url: `${store.origin}/upload/${id}`, file_id: id };
  },
  "files.completeUploadExternal": (store: FakeSlackStore, args: Args, self: FakeSlackSelf) => {
    const entries = listOf(args.files);
    if (entries.length === 0) throw new FileMethodError("invalid_arguments");
    const files = entries.map((entry) => {
      const file = store.files.get(String(entry.id));
      if (file === undefined || file.data === undefined) {
        throw new FileMethodError("file_upload_not_found");
      }
      return file;
    });
    const channel = typeof args.channel_id === "string" ? args.channel_id : undefined;
    for (const [index, file] of files.entries()) {
      file.completed = true;
      const title = entries[index]?.title;
      if (typeof title === "string") file.title = title;
      if (channel !== undefined) file.channel = channel;
    }
    if (channel !== undefined) {
      const threadTs = typeof args.thread_ts === "string" ? args.thread_ts : undefined;
      const message = store.add({
        channel,
        text: typeof args.initial_comment === "string" ? args.initial_comment : "",
        user: self.botUserId,
        team: self.teamId,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      });
      message.files = files.map((file) => file.id);
    }
    return { ok: true, files: files.map((file) => ({ id: file.id, title: file.title ?? "" })) };
  },
} as const;

/** What the file methods need of the caller. */
export interface FakeSlackSelf {
  readonly botUserId: string;
  readonly teamId: string;
}

/** Runs a file method, turning its refusals into Slack's answer shape. */
export function runFileMethod(
  method: keyof typeof FAKE_SLACK_FILE_METHODS,
  store: FakeSlackStore,
  args: Args,
  self: FakeSlackSelf,
): Record<string, unknown> {
  try {
    return FAKE_SLACK_FILE_METHODS[method](store, args, self);
  } catch (error) {
    if (error instanceof FileMethodError) return { ok: false, error: error.slackError };
    throw error;
  }
}

async function readBytes(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** How many requests Slack takes on one `response_url`. */
const RESPONSE_URL_USES = 5;

function reply(response: ServerResponse, status: number, body: string, type = "text/plain") {
  response.writeHead(status, { "content-type": type });
  response.end(body);
}

/**
 * The fake's non-API routes, or false when `path` is none of them:
 * - `POST /upload/{fileId}`: the upload URL; takes the multipart body WebClient sends.
 * - `GET /files/…`: `url_private` downloads, only with a bot token the fake knows — the file's
 *   own workspace token when the download names one — else 403, as Slack answers a download
 *   without the right token; a download with `redirectTo` is answered 302 there.
 * - `POST /response/…`: a `response_url`; records the JSON body in `store.responses`. Like
 *   Slack, one URL takes 5 requests: the 6th is answered 404 `used_url` and not recorded.
 */
export async function answerFakeSlackRoute(
  store: FakeSlackStore,
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  isKnownToken: (token: string | undefined) => boolean,
): Promise<boolean> {
  if (path.startsWith("/upload/") && request.method === "POST") {
    const file = store.files.get(path.slice("/upload/".length));
    if (file === undefined) return (reply(response, 404, "not found"), true);
    const bytes = await readBytes(request);
    const form = await new Request("http://fake/upload", {
      method: "POST",
      headers: { "content-type": String(request.headers["content-type"] ?? "") },
      body: new Uint8Array(bytes),
    })
      .formData()
      .catch(() => undefined);
    const part = form?.get("body") ?? form?.get("file");
    if (part === undefined || part === null || typeof part === "string") {
      return (reply(response, 400, "no file part"), true);
    }
    file.data = new Uint8Array(await part.arrayBuffer());
    reply(response, 200, `OK - ${file.data.byteLength}`);
    return true;
  }
  if (path.startsWith("/files/") && request.method === "GET") {
    const auth = request.headers.authorization;
    const token = auth?.startsWith("Bearer ") ? auth.slice(7) : undefined;
    if (!isKnownToken(token)) return (reply(response, 403, "forbidden"), true);
    const download = store.downloads.get(path);
    if (download === undefined) return (reply(response, 404, "not found"), true);
    if (download.token !== undefined && token !== download.token) {
      return (reply(response, 403, "forbidden"), true);
    }
    if (download.redirectTo !== undefined) {
      response.writeHead(302, { location: download.redirectTo });
      response.end();
      return true;
    }
    response.writeHead(200, { "content-type": download.mimeType });
    response.end(Buffer.from(download.bytes));
    return true;
  }
  if (path.startsWith("/response/") && request.method === "POST") {
    const raw = (await readBytes(request)).toString("utf8");
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return (reply(response, 400, "invalid_payload"), true);
    }
    if (store.responses.filter((call) => call.path === path).length >= RESPONSE_URL_USES) {
      return (reply(response, 404, "used_url"), true);
    }
    store.responses.push({ path, body });
    reply(response, 200, "ok");
    return true;
  }
  return false;
}
