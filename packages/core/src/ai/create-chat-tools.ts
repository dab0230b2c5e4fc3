import type { Tool } from "ai";
import { ValidationError } from "../errors/index.js";
import { fetchChannelMessages, getChannelInfo, listThreads } from "./channel-tools.js";
import type { ChatBinding, ToolOverrides } from "./chat-binding.js";
import {
  deleteMessage,
  editMessage,
  postChannelMessage,
  postMessage,
  sendDirectMessage,
} from "./message-tools.js";
import { addReaction, removeReaction } from "./reaction-tools.js";
import { createScopeGuard, type ReadScope } from "./read-scope.js";
import {
  fetchMessages,
  fetchThread,
  getThreadParticipants,
  startTyping,
  subscribeThread,
  unsubscribeThread,
} from "./thread-tools.js";
import { getUser } from "./user-tools.js";

/** Every tool's name (upstream's `ChatToolName`). */
export type ChatToolName =
  | "fetchMessages"
  | "fetchChannelMessages"
  | "fetchThread"
  | "listThreads"
  | "getThreadParticipants"
  | "getChannelInfo"
  | "getUser"
  | "startTyping"
  | "postMessage"
  | "postChannelMessage"
  | "sendDirectMessage"
  | "editMessage"
  | "deleteMessage"
  | "addReaction"
  | "removeReaction"
  | "subscribeThread"
  | "unsubscribeThread";

/** The tools that change something on the platform; each needs approval unless told otherwise. */
export type ChatWriteToolName =
  | "postMessage"
  | "postChannelMessage"
  | "sendDirectMessage"
  | "editMessage"
  | "deleteMessage"
  | "addReaction"
  | "removeReaction"
  | "subscribeThread"
  | "unsubscribeThread";

/** The tools gated by approval by default: the writes, and `getUser` (any user's profile). */
export type ChatApprovalToolName = ChatWriteToolName | "getUser";

/**
 * Which tools need the user's approval before they run: `true` (the default) all of
 * {@link ChatApprovalToolName}, `false` none, or per tool, where an unnamed tool stays `true`.
 */
export type ApprovalConfig = boolean | Partial<Record<ChatApprovalToolName, boolean>>;

/**
 * Ready-made tool selections (upstream's): `reader` only reads; `messenger` reads a little and
 * posts, DMs, reacts and types; `moderator` is everything.
 */
export type ChatToolPreset = "reader" | "messenger" | "moderator";

const PRESET_TOOLS: Record<ChatToolPreset, readonly ChatToolName[]> = {
  reader: [
    "fetchMessages",
    "fetchChannelMessages",
    "fetchThread",
    "listThreads",
    "getThreadParticipants",
    "getChannelInfo",
    "getUser",
  ],
  messenger: [
    "fetchMessages",
    "fetchThread",
    "getChannelInfo",
    "getUser",
    "postMessage",
    "postChannelMessage",
    "sendDirectMessage",
    "addReaction",
    "removeReaction",
    "startTyping",
  ],
  moderator: [
    "fetchMessages",
    "fetchChannelMessages",
    "fetchThread",
    "listThreads",
    "getThreadParticipants",
    "getChannelInfo",
    "getUser",
    "postMessage",
    "postChannelMessage",
    "sendDirectMessage",
    "editMessage",
    "deleteMessage",
    "addReaction",
    "removeReaction",
    "subscribeThread",
    "unsubscribeThread",
    "startTyping",
  ],
};

/**
 * Tool fields an override may not replace: what the tool does and how its input is checked, and
 * the fields that would turn it into a provider-executed tool.
 */
const PROTECTED_FIELDS = new Set([
  "args",
  "execute",
  "id",
  "inputSchema",
  "outputSchema",
  "supportsDeferredResults",
  "type",
]);

/** Options of {@link createChatTools} (upstream's `ChatToolsOptions`). */
export interface ChatToolsOptions {
  /** The `Chat` the tools act through. */
  chat: ChatBinding;
  /** Only the tools of these presets; default every tool. */
  preset?: ChatToolPreset | ChatToolPreset[];
  /** See {@link ApprovalConfig}. Default `true`. */
  requireApproval?: ApprovalConfig;
  /**
   * The conversation the tools may touch: a `Thread`, a `Channel` or an id. Default: per call,
   * the conversation whose handler is running, so tools made inside a handler stay in its
   * channel. `false` lets them reach every conversation the bot can. Applies to every tool that
   * targets a thread or channel; `getUser` and `sendDirectMessage` target users and are gated by
   * approval instead. Outside a handler with no scope the tools are unconfined, with a warning.
   */
  scope?: ReadScope | false;
  /**
   * Confine a thread scope to that thread alone: sibling threads and the channel itself are
   * refused. A channel scope is unaffected. Default `false` (channel-level scope).
   */
  strictScope?: boolean;
  /** Presentation and approval changes per tool; see {@link ToolOverrides}. */
  overrides?: Partial<Record<ChatToolName, ToolOverrides>>;
}

function approvalOf(name: ChatApprovalToolName, config: ApprovalConfig): boolean {
  return typeof config === "boolean" ? config : (config[name] ?? true);
}

function builders(options: ChatToolsOptions) {
  const { chat, requireApproval = true, strictScope = false } = options;
  const guard = createScopeGuard(chat, options.scope, strictScope);
  const gated = (name: ChatWriteToolName) => ({
    needsApproval: approvalOf(name, requireApproval),
    guard,
  });
  return {
    fetchMessages: () => fetchMessages(chat, guard),
    fetchChannelMessages: () => fetchChannelMessages(chat, guard),
    fetchThread: () => fetchThread(chat, guard),
    listThreads: () => listThreads(chat, guard),
    getThreadParticipants: () => getThreadParticipants(chat, guard),
    getChannelInfo: () => getChannelInfo(chat, guard),
    getUser: () => getUser(chat, approvalOf("getUser", requireApproval)),
    startTyping: () => startTyping(chat, guard),
    postMessage: () => postMessage(chat, gated("postMessage")),
    postChannelMessage: () => postChannelMessage(chat, gated("postChannelMessage")),
    // A user id resolves to no conversation, so approval alone gates direct messages.
    sendDirectMessage: () =>
      sendDirectMessage(chat, { needsApproval: approvalOf("sendDirectMessage", requireApproval) }),
    editMessage: () => editMessage(chat, gated("editMessage")),
    deleteMessage: () => deleteMessage(chat, gated("deleteMessage")),
    addReaction: () => addReaction(chat, gated("addReaction")),
    removeReaction: () => removeReaction(chat, gated("removeReaction")),
    subscribeThread: () => subscribeThread(chat, gated("subscribeThread")),
    unsubscribeThread: () => unsubscribeThread(chat, gated("unsubscribeThread")),
  } satisfies Record<ChatToolName, () => Tool>;
}

type Builders = ReturnType<typeof builders>;

/** The tools {@link createChatTools} returns, by name; a preset leaves some out. */
export type ChatTools = Partial<{ [K in ChatToolName]: ReturnType<Builders[K]> }>;

/**
 * AI SDK tools that let an agent work in the chat through `chat` (upstream's `createChatTools`):
 * read threads, channels and users; post, DM, edit, delete, react, type and (un)subscribe, on
 * every adapter the `Chat` has. Writes and `getUser` need approval unless `requireApproval` says
 * otherwise; tools stay in the handled conversation's channel unless `scope` says otherwise.
 * Tools are built only for the selected preset. Throws a `ValidationError` without a `chat`.
 *
 * @example
 * bot.onNewMention(async (thread) => {
 *   const result = streamText({ model, tools: createChatTools({ chat: bot, preset: "reader" }), … });
 *   await thread.post(result.fullStream);
 * });
 */
export function createChatTools(options: ChatToolsOptions): ChatTools {
  if (!options?.chat) {
    throw new ValidationError(
      "createChatTools requires a `chat` instance: pass your `new Chat({ … })` as `chat`",
      { step: "create chat tools" },
    );
  }
  const allowed = options.preset
    ? new Set(
        (Array.isArray(options.preset) ? options.preset : [options.preset]).flatMap(
          (preset) => PRESET_TOOLS[preset] ?? unknownPreset(preset),
        ),
      )
    : undefined;
  const all = builders(options);
  const tools: Record<string, Tool> = {};
  for (const name of Object.keys(all) as ChatToolName[]) {
    if (allowed && !allowed.has(name)) continue;
    tools[name] = withOverrides(all[name](), options.overrides?.[name]);
  }
  return tools as ChatTools;
}

function withOverrides(built: Tool, overrides: ToolOverrides | undefined): Tool {
  if (!overrides) return built;
  const safe = Object.entries(overrides).filter(([key]) => !PROTECTED_FIELDS.has(key));
  return { ...built, ...Object.fromEntries(safe) } as Tool;
}

function unknownPreset(preset: unknown): never {
  throw new ValidationError(
    `preset ${JSON.stringify(preset)} is not one of ${Object.keys(PRESET_TOOLS).join(", ")}`,
    { step: "create chat tools" },
  );
}
