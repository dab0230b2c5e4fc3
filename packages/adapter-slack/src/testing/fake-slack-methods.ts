import { blocksAreValid } from "./fake-slack-blocks.js";
import { type FakeSlackStore, messageJson } from "./fake-slack-store.js";
import { validStreamStopBlocks } from "./fake-slack-stream-blocks.js";

/** Slack's answer to one method call: its JSON (with `ok`) or a platform error. */
export type FakeSlackAnswer = Record<string, unknown>;

/** Raised by a method handler for Slack's `{ ok: false, error }` answers. */
export class FakeSlackError extends Error {
  constructor(readonly slackError: string) {
    super(slackError);
  }
}

/** Who the fake's bot is. */
export interface FakeSlackIdentity {
  readonly botUserId: string;
  readonly botId: string;
  readonly teamId: string;
}

type Args = Record<string, unknown>;
type Handler = (store: FakeSlackStore, args: Args, self: FakeSlackIdentity) => FakeSlackAnswer;

function need(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== "string" || value === "") throw new FakeSlackError(`invalid_arguments`);
  return value;
}

function channelOf(store: FakeSlackStore, args: Args, name = "channel"): string {
  const channel = need(args, name);
  const error = store.channelErrors.get(channel);
  if (error !== undefined) throw new FakeSlackError(error);
  if (!/^[CDGW][A-Z0-9_]+$/.test(channel)) throw new FakeSlackError("channel_not_found");
  return channel;
}

function blocksOf(args: Args): unknown[] | undefined {
  const blocks = args.blocks;
  if (typeof blocks === "string") return JSON.parse(blocks) as unknown[];
  return Array.isArray(blocks) ? blocks : undefined;
}

function textOf(args: Args): string {
  const text = typeof args.text === "string" ? args.text : "";
  const blocks = blocksOf(args);
  if (text === "" && (blocks === undefined || blocks.length === 0)) {
    throw new FakeSlackError("no_text");
  }
  if (text.length > 40_000) throw new FakeSlackError("msg_too_long");
  if (blocks !== undefined && !blocksAreValid(blocks)) throw new FakeSlackError("invalid_blocks");
  return text;
}

function page<T>(items: T[], args: Args) {
  const limit = Math.max(1, Math.min(Number(args.limit ?? 100) || 100, 1_000));
  const cursor =
    typeof args.cursor === "string" && args.cursor.startsWith("c:") ? args.cursor : "c:0";
  const start = Number(cursor.slice(2)) || 0;
  const slice = items.slice(start, start + limit);
  const next = start + limit < items.length ? `c:${start + limit}` : "";
  return {
    slice,
    meta: { has_more: next !== "", response_metadata: { next_cursor: next } },
  };
}

function reaction(store: FakeSlackStore, args: Args, self: FakeSlackIdentity, add: boolean) {
  const channel = channelOf(store, args);
  const message = store.find(channel, need(args, "timestamp"));
  if (message === undefined) throw new FakeSlackError("message_not_found");
  const name = need(args, "name");
  const users = message.reactions.get(name) ?? new Set<string>();
  if (add && users.has(self.botUserId)) throw new FakeSlackError("already_reacted");
  if (!add && !users.has(self.botUserId)) throw new FakeSlackError("no_reaction");
  if (add) users.add(self.botUserId);
  else users.delete(self.botUserId);
  if (users.size === 0) message.reactions.delete(name);
  else message.reactions.set(name, users);
  return { ok: true };
}

function streamStep(store: FakeSlackStore, args: Args, stop: boolean) {
  const channel = channelOf(store, args);
  const message = store.find(channel, need(args, "ts"));
  if (message === undefined) throw new FakeSlackError("message_not_found");
  if (!store.streaming.has(message.ts)) throw new FakeSlackError("message_not_in_streaming_state");
  const text = typeof args.markdown_text === "string" ? args.markdown_text : "";
  if (!stop && text === "") throw new FakeSlackError("no_text");
  message.text += text;
  const blocks = blocksOf(args);
  if (blocks !== undefined && stop && !validStreamStopBlocks(blocks)) {
    throw new FakeSlackError("invalid_blocks");
  }
  if (blocks) message.blocks = blocks;
  if (stop) store.streaming.delete(message.ts);
  return { ok: true, channel, ts: message.ts, ...(stop ? { message: messageJson(message) } : {}) };
}

function view(store: FakeSlackStore, args: Args, viewId?: string) {
  const raw = args.view;
  const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as Record<string, unknown>;
  if (typeof parsed !== "object" || parsed === null) throw new FakeSlackError("invalid_arguments");
  const id = viewId ?? store.nextId("V");
  const stored = { id, ...parsed };
  store.views.set(id, stored);
  return { ok: true, view: stored };
}

/** The Web API methods the fake implements, with Slack's argument checks and answers. */
export const FAKE_SLACK_METHODS: Readonly<Record<string, Handler>> = {
  "auth.test": (_store, _args, self) => ({
    ok: true,
    url: "https://fake.slack.com/",
    team: "Fake Workspace",
    user: "bot",
    team_id: self.teamId,
    user_id: self.botUserId,
    bot_id: self.botId,
  }),
  "chat.postMessage": (store, args, self) => {
    const channel = channelOf(store, args);
    const text = textOf(args);
    const threadTs =
      typeof args.thread_ts === "string" && args.thread_ts ? args.thread_ts : undefined;
    const message = store.add({
      channel,
      text,
      user: self.botUserId,
      team: self.teamId,
      bot_id: self.botId,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
    const blocks = blocksOf(args);
    if (blocks) message.blocks = blocks;
    return { ok: true, channel, ts: message.ts, message: messageJson(message) };
  },
  "chat.update": (store, args, self) => {
    const channel = channelOf(store, args);
    const message = store.find(channel, need(args, "ts"));
    if (message === undefined) throw new FakeSlackError("message_not_found");
    if (message.user !== self.botUserId) throw new FakeSlackError("cant_update_message");
    message.text = textOf(args);
    const blocks = blocksOf(args);
    if (blocks) message.blocks = blocks;
    message.edited = { user: self.botUserId, ts: store.nextTs() };
    return { ok: true, channel, ts: message.ts, text: message.text, message: messageJson(message) };
  },
  "chat.delete": (store, args) => {
    const channel = channelOf(store, args);
    const message = store.find(channel, need(args, "ts"));
    if (message === undefined) throw new FakeSlackError("message_not_found");
    message.deleted = true;
    return { ok: true, channel, ts: message.ts };
  },
  "chat.postEphemeral": (store, args) => {
    channelOf(store, args);
    need(args, "user");
    textOf(args);
    return { ok: true, message_ts: store.nextTs() };
  },
  "chat.scheduleMessage": (store, args) => {
    const channel = channelOf(store, args);
    const postAt = Number(args.post_at);
    if (!Number.isFinite(postAt)) throw new FakeSlackError("invalid_time");
    const id = store.nextId("Q");
    store.scheduled.push({ id, channel, postAt, text: textOf(args), deleted: false });
    return { ok: true, channel, scheduled_message_id: id, post_at: postAt };
  },
  "chat.deleteScheduledMessage": (store, args) => {
    channelOf(store, args);
    const item = store.scheduled.find((s) => s.id === args.scheduled_message_id && !s.deleted);
    if (item === undefined) throw new FakeSlackError("invalid_scheduled_message_id");
    item.deleted = true;
    return { ok: true };
  },
  "reactions.add": (store, args, self) => reaction(store, args, self, true),
  "reactions.remove": (store, args, self) => reaction(store, args, self, false),
  "conversations.open": (store, args) => {
    const users = need(args, "users");
    return { ok: true, channel: { id: `D${users.replace(/^[UW]/, "")}` } };
  },
  "conversations.replies": (store, args) => {
    const channel = channelOf(store, args);
    const messages = store.thread(channel, need(args, "ts"));
    if (messages.length === 0) throw new FakeSlackError("thread_not_found");
    const { slice, meta } = page(messages, args);
    return { ok: true, messages: slice.map(messageJson), ...meta };
  },
  "conversations.history": (store, args) => {
    const channel = channelOf(store, args);
    const { slice, meta } = page(store.history(channel), args);
    const messages = slice.map((message) => {
      const replies = store.thread(channel, message.ts).filter((m) => m.ts !== message.ts);
      const latest = replies.at(-1)?.ts;
      return {
        ...messageJson(message),
        ...(replies.length > 0 ? { reply_count: replies.length, latest_reply: latest } : {}),
      };
    });
    return { ok: true, messages, ...meta };
  },
  "conversations.info": (store, args) => {
    const channel = channelOf(store, args);
    const im = channel.startsWith("D");
    return {
      ok: true,
      channel: {
        id: channel,
        ...(im
          ? { is_im: true, user: `U${channel.slice(1)}` }
          : { name: store.channelNames.get(channel) ?? channel.toLowerCase() }),
        is_channel: channel.startsWith("C"),
        is_private: channel.startsWith("G"),
        is_im: im,
        num_members: store.members.get(channel) ?? (im ? 2 : 3),
      },
    };
  },
  "users.info": (store, args) => {
    const user = store.users.get(need(args, "user"));
    if (user === undefined) throw new FakeSlackError("user_not_found");
    return {
      ok: true,
      user: {
        id: user.id,
        name: user.name,
        real_name: user.realName ?? user.name,
        is_bot: user.isBot === true,
        profile: {
          display_name: user.displayName ?? user.name,
          real_name: user.realName ?? user.name,
          ...(user.email ? { email: user.email } : {}),
          image_192: `https://avatars.fake.slack.com/${user.id}.png`,
        },
      },
    };
  },
  "views.open": (store, args) => {
    need(args, "trigger_id");
    return view(store, args);
  },
  "views.update": (store, args) => {
    const id = need(args, "view_id");
    if (!store.views.has(id)) throw new FakeSlackError("not_found");
    return view(store, args, id);
  },
  "views.publish": (store, args) => {
    need(args, "user_id");
    return view(store, args);
  },
  "chat.startStream": (store, args, self) => {
    const channel = channelOf(store, args);
    const threadTs = need(args, "thread_ts");
    // Outside a DM Slack must be told whom the stream answers.
    if (!channel.startsWith("D")) {
      need(args, "recipient_user_id");
      need(args, "recipient_team_id");
    }
    const message = store.add({
      channel,
      text: "",
      user: self.botUserId,
      team: self.teamId,
      bot_id: self.botId,
      thread_ts: threadTs,
    });
    store.streaming.add(message.ts);
    return { ok: true, channel, ts: message.ts };
  },
  "chat.appendStream": (store, args) => streamStep(store, args, false),
  "chat.stopStream": (store, args) => streamStep(store, args, true),
  "assistant.threads.setStatus": (store, args) => {
    const channel = channelOf(store, args, "channel_id");
    const threadTs = need(args, "thread_ts");
    store.statuses.push({ channel, threadTs, status: String(args.status ?? "") });
    return { ok: true };
  },
  "assistant.threads.setSuggestedPrompts": (store, args) => {
    channelOf(store, args, "channel_id");
    const prompts = args.prompts;
    const parsed = typeof prompts === "string" ? (JSON.parse(prompts) as unknown) : prompts;
    if (!Array.isArray(parsed) || parsed.length === 0)
      throw new FakeSlackError("invalid_arguments");
    return { ok: true };
  },
  "assistant.threads.setTitle": (store, args) => {
    channelOf(store, args, "channel_id");
    need(args, "thread_ts");
    need(args, "title");
    return { ok: true };
  },
};
