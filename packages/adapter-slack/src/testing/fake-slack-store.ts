/** A message the fake holds (Slack's message object, the fields the fake keeps). */
export interface FakeSlackMessage {
  readonly ts: string;
  readonly channel: string;
  text: string;
  blocks?: unknown[];
  readonly user: string;
  readonly thread_ts?: string;
  readonly bot_id?: string;
  readonly team: string;
  edited?: { user: string; ts: string };
  deleted: boolean;
  reactions: Map<string, Set<string>>;
  /** Ids of the files shared with the message (`files.completeUploadExternal`). */
  files?: string[];
}

/** A `url_private` body the fake serves at its path (`/files/…`). */
export interface FakeSlackDownload {
  readonly bytes: Uint8Array;
  readonly mimeType: string;
  /** Only this bot token may download it (the token of the workspace the file lives in). */
  readonly token?: string;
  /** Answers 302 to this URL instead of the bytes (Slack handing the download elsewhere). */
  readonly redirectTo?: string;
}

/** A file uploaded through `files.getUploadURLExternal` and the upload URL. */
export interface FakeSlackFile {
  readonly id: string;
  readonly filename: string;
  /** The length announced in `files.getUploadURLExternal`. */
  readonly length: number;
  title?: string;
  /** The bytes posted to the upload URL; undefined until then. */
  data?: Uint8Array;
  /** True once `files.completeUploadExternal` shared it. */
  completed: boolean;
  /** The channel it was shared in. */
  channel?: string;
}

/** One request a `response_url` received (JSON body, as Slack's interactivity takes it). */
export interface FakeSlackResponseCall {
  /** The path of the response URL that was called. */
  readonly path: string;
  readonly body: Readonly<Record<string, unknown>>;
}

/** A user the fake knows (`users.info`). */
export interface FakeSlackUser {
  readonly id: string;
  readonly name: string;
  readonly realName?: string;
  /** The profile's display name; default `name` (`""` to test the fallback to the real name). */
  readonly displayName?: string;
  readonly email?: string;
  readonly isBot?: boolean;
}

/** A scheduled message the fake holds. */
export interface FakeSlackScheduled {
  readonly id: string;
  readonly channel: string;
  readonly postAt: number;
  readonly text: string;
  deleted: boolean;
}

/**
 * The fake's workspace: channels' messages in post order, users, scheduled messages, views.
 * `ts` values grow strictly, as Slack's do within a channel.
 */
export class FakeSlackStore {
  readonly messages: FakeSlackMessage[] = [];
  readonly users = new Map<string, FakeSlackUser>();
  readonly scheduled: FakeSlackScheduled[] = [];
  readonly views = new Map<string, Record<string, unknown>>();
  readonly statuses: Array<{ channel: string; threadTs: string; status: string }> = [];
  /** Channel names `conversations.info` answers with (default: the id in lower case). */
  readonly channelNames = new Map<string, string>();
  /** Member counts `conversations.info` answers with. */
  readonly members = new Map<string, number>();
  /** The ts of messages whose native stream is open (between startStream and stopStream). */
  readonly streaming = new Set<string>();
  /** Channels that answer with an error instead (`channel_not_found`, `not_in_channel`, …). */
  readonly channelErrors = new Map<string, string>();
  /** Uploaded files by id, and downloadable `url_private` bodies by path (`/files/…`). */
  readonly files = new Map<string, FakeSlackFile>();
  readonly downloads = new Map<string, FakeSlackDownload>();
  /** Requests to `response_url`s (`{origin}/response/…`), in arrival order. */
  readonly responses: FakeSlackResponseCall[] = [];
  /** The fake's origin (`http://127.0.0.1:{port}`), for the URLs it hands out. */
  origin = "";
  private clockSeconds = 1_700_000_000;
  private counter = 0;

  nextTs(): string {
    this.counter += 1;
    return `${this.clockSeconds + this.counter}.${String(this.counter).padStart(6, "0")}`;
  }

  nextId(prefix: string): string {
    this.counter += 1;
    return `${prefix}${String(this.counter).padStart(9, "0")}`;
  }

  find(channel: string, ts: string): FakeSlackMessage | undefined {
    return this.messages.find((m) => m.channel === channel && m.ts === ts && !m.deleted);
  }

  /** Adds a message as if someone posted it (history tests). */
  add(init: {
    channel: string;
    text: string;
    user: string;
    team: string;
    ts?: string;
    thread_ts?: string;
    bot_id?: string;
  }): FakeSlackMessage {
    const message: FakeSlackMessage = {
      ts: init.ts ?? this.nextTs(),
      channel: init.channel,
      text: init.text,
      user: init.user,
      team: init.team,
      ...(init.thread_ts === undefined ? {} : { thread_ts: init.thread_ts }),
      ...(init.bot_id === undefined ? {} : { bot_id: init.bot_id }),
      deleted: false,
      reactions: new Map(),
    };
    this.messages.push(message);
    return message;
  }

  /** A thread: its parent and replies, oldest first. */
  thread(channel: string, ts: string): FakeSlackMessage[] {
    return this.messages.filter(
      (m) => m.channel === channel && !m.deleted && (m.ts === ts || m.thread_ts === ts),
    );
  }

  /** A channel's top-level messages, newest first. */
  history(channel: string): FakeSlackMessage[] {
    return this.messages
      .filter((m) => m.channel === channel && !m.deleted && (!m.thread_ts || m.thread_ts === m.ts))
      .reverse();
  }
}

/** Slack's JSON form of a stored message. */
export function messageJson(message: FakeSlackMessage): Record<string, unknown> {
  const reactions = [...message.reactions].map(([name, users]) => ({
    name,
    users: [...users],
    count: users.size,
  }));
  return {
    type: "message",
    ts: message.ts,
    text: message.text,
    user: message.user,
    team: message.team,
    ...(message.blocks ? { blocks: message.blocks } : {}),
    ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
    ...(message.bot_id ? { bot_id: message.bot_id } : {}),
    ...(message.edited ? { edited: message.edited } : {}),
    ...(reactions.length > 0 ? { reactions } : {}),
    ...(message.files ? { files: message.files.map((id) => ({ id })) } : {}),
  };
}
