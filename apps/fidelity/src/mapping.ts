/**
 * Which Baton test files port which upstream test file. Globs are relative to the repository
 * root; a glob that matches nothing yet contributes no titles. An upstream title counts as matched
 * only by a Baton test in the files mapped to its own upstream file.
 */
export interface FileMapping {
  /** The upstream test file, as named in the manifest (`packages/chat/src/chat.test.ts`). */
  readonly upstream: string;
  /** Baton files whose test titles may match it: globs, or part of a file (see {@link BatonPart}). */
  readonly baton: readonly (string | BatonPart)[];
  /** Why these files, when it is not obvious. */
  readonly note?: string;
}

/** Only the tests of some top-level describe blocks of the files a glob matches. */
export interface BatonPart {
  readonly glob: string;
  /** Names of top-level describe blocks whose tests count. */
  readonly under: readonly string[];
}

/** State conformance cases (`defineCases`), run by every backend against its real store. */
const CONFORMANCE_CASES = "packages/conformance/src/cases/**/*.ts";

/** Upstream's adapter-teams test files, each ported by the Baton test file of the same concern. */
function teamsMappings(): FileMapping[] {
  const index = [
    "adapter.test.ts",
    "outbound.test.ts",
    "webhook.test.ts",
    "security.test.ts",
    "get-user.test.ts",
    "stream.test.ts",
    "sender-email.test.ts",
  ];
  const pairs: Array<[string, string[]]> = [
    ["api/boundary.test.ts", ["boundary.test.ts"]],
    ["api/index.test.ts", ["api.test.ts"]],
    ["attachments.test.ts", ["attachments.test.ts"]],
    ["cards-primitives/boundary.test.ts", ["boundary.test.ts"]],
    ["cards-primitives/index.test.ts", ["cards.test.ts"]],
    ["cards.test.ts", ["cards.test.ts"]],
    ["config.test.ts", ["config.test.ts"]],
    ["errors.test.ts", ["errors.test.ts"]],
    ["format/boundary.test.ts", ["boundary.test.ts"]],
    ["format/index.test.ts", ["format.test.ts"]],
    ["graph-api.test.ts", ["graph-text.test.ts"]],
    ["graph/boundary.test.ts", ["graph-boundary.test.ts"]],
    ["graph/index.test.ts", ["graph.test.ts"]],
    ["index.test.ts", index],
    ["markdown.test.ts", ["markdown.test.ts"]],
    ["modals-primitives/boundary.test.ts", ["boundary.test.ts"]],
    ["modals-primitives/index.test.ts", ["modals.test.ts"]],
    ["modals.test.ts", ["modals.test.ts"]],
    ["webhook/boundary.test.ts", ["boundary.test.ts"]],
    ["webhook/index.test.ts", ["webhook.test.ts", "security.test.ts"]],
  ];
  return pairs.map(([upstream, baton]) => ({
    upstream: `packages/adapter-teams/src/${upstream}`,
    baton: baton.map((file) => `packages/adapter-teams/test/${file}`),
  }));
}

/** Upstream's adapter-twilio test files, each ported by the Baton test file of the same concern. */
function twilioMappings(): FileMapping[] {
  const pairs: Array<[string, string[]]> = [
    ["api/index.test.ts", ["api.test.ts"]],
    ["api/boundary.test.ts", ["boundary.test.ts"]],
    ["cards.test.ts", ["cards.test.ts"]],
    ["format/index.test.ts", ["format.test.ts"]],
    ["format/boundary.test.ts", ["boundary.test.ts"]],
    ["index.test.ts", ["adapter.test.ts"]],
    ["markdown.test.ts", ["format.test.ts"]],
    ["voice/boundary.test.ts", ["boundary.test.ts"]],
    ["voice/index.test.ts", ["voice.test.ts"]],
    ["webhook/boundary.test.ts", ["boundary.test.ts"]],
    ["webhook/index.test.ts", ["webhook.test.ts"]],
  ];
  return pairs.map(([upstream, baton]) => ({
    upstream: `packages/adapter-twilio/src/${upstream}`,
    baton: baton.map((file) => `packages/adapter-twilio/test/${file}`),
  }));
}

/** Upstream's adapter-slack test files, each ported by the Baton test file of the same concern. */
function slackMappings(): FileMapping[] {
  const webhook = [
    "webhook.test.ts",
    "webhook-messages.test.ts",
    "security.test.ts",
    "interactions.test.ts",
  ];
  const pairs: Array<[string, string[]]> = [
    ["agent-context.test.ts", ["agent-context.test.ts"]],
    ["api/boundary.test.ts", ["boundary.test.ts"]],
    ["api/index.test.ts", ["api.test.ts", "outbound.test.ts"]],
    ["blocks/boundary.test.ts", ["boundary.test.ts"]],
    ["blocks/index.test.ts", ["blocks.test.ts"]],
    ["cards.test.ts", ["cards.test.ts", "cards-tables.test.ts"]],
    ["crypto.test.ts", ["crypto.test.ts"]],
    ["format/boundary.test.ts", ["boundary.test.ts"]],
    ["format/index.test.ts", ["format.test.ts"]],
    [
      "index.test.ts",
      [
        "adapter.test.ts",
        "agent-view.test.ts",
        "assistant.test.ts",
        "assistant-events.test.ts",
        "bot-token.test.ts",
        "channels.test.ts",
        "ephemeral.test.ts",
        "fetch-message.test.ts",
        "file-download.test.ts",
        "files.test.ts",
        "installations.test.ts",
        "installations-clients.test.ts",
        "installations-enterprise.test.ts",
        "installations-oauth.test.ts",
        "installations-user-caches.test.ts",
        "link-unfurls.test.ts",
        "mentions-outbound.test.ts",
        "outbound.test.ts",
        "parse.test.ts",
        "parse-shapes.test.ts",
        "socket.test.ts",
        "stream.test.ts",
        "stream-feedback.test.ts",
        "stream-mentions.test.ts",
        "user-names.test.ts",
        "user-names-events.test.ts",
        "web-client-options.test.ts",
        "webhook-edits.test.ts",
        ...webhook,
      ],
    ],
    ["markdown.test.ts", ["format.test.ts", "mentions-outbound.test.ts"]],
    ["modals.test.ts", ["modals.test.ts"]],
    ["webhook/boundary.test.ts", ["boundary.test.ts"]],
    ["webhook/index.test.ts", [...webhook, "webhook-module.test.ts"]],
  ];
  return pairs.map(([upstream, baton]) => ({
    upstream: `packages/adapter-slack/src/${upstream}`,
    baton: baton.map((file) => `packages/adapter-slack/test/${file}`),
  }));
}

/** Upstream's adapter-telegram test files, each ported by the Baton test file of the same concern. */
function telegramMappings(): FileMapping[] {
  const pairs: Array<[string, string[]]> = [
    ["cards.test.ts", ["cards.test.ts"]],
    [
      "index.test.ts",
      [
        "config.test.ts",
        "content.test.ts",
        "inbound.test.ts",
        "outbound.test.ts",
        "polling.test.ts",
      ],
    ],
    ["markdown.test.ts", ["markdown.test.ts"]],
    ["rich.test.ts", []],
  ];
  return pairs.map(([upstream, baton]) => ({
    upstream: `packages/adapter-telegram/src/${upstream}`,
    baton: baton.map((file) => `packages/adapter-telegram/test/${file}`),
  }));
}

/** The mapped file pairs, in report order. */
export const FILE_MAPPINGS: readonly FileMapping[] = [
  {
    upstream: "packages/chat/src/chat.test.ts",
    baton: [
      "packages/core/test/chat/**/*.test.ts",
      "packages/core/test/runtime/chat-config.test.ts",
    ],
    note: "chat-config.test.ts holds the ported config checks of `concurrency: concurrent`.",
  },
  {
    upstream: "packages/chat/src/thread.test.ts",
    baton: [
      "packages/core/test/runtime/thread.test.ts",
      "packages/core/test/runtime/thread-streaming.test.ts",
      // thread surface: sent messages, people, scheduling, replies, callback URLs
      "packages/core/test/runtime/thread-sent-message.test.ts",
      "packages/core/test/runtime/thread-people.test.ts",
      "packages/core/test/runtime/thread-schedule.test.ts",
      "packages/core/test/runtime/thread-replies.test.ts",
      "packages/core/test/runtime/thread-callback-urls.test.ts",
      "packages/core/test/runtime/thread-plan.test.ts",
      // history and serialization
      { glob: "packages/core/test/runtime/history-iterators.test.ts", under: ["ThreadImpl"] },
    ],
  },
  {
    upstream: "packages/chat/src/channel.test.ts",
    baton: [
      "packages/core/test/runtime/channel.test.ts",
      {
        glob: "packages/core/test/runtime/thread.test.ts",
        under: ["thread.channel", "thread.messages (newest first)"],
      },
      {
        glob: "packages/core/test/runtime/history-iterators.test.ts",
        under: ["ChannelImpl", "thread.channel", "thread.messages (newest first)"],
      },
      { glob: "packages/core/test/runtime/stream-posting.test.ts", under: ["ChannelImpl"] },
      // thread surface: ephemeral, mentions, schedule, metadata, threads, callback URLs
      "packages/core/test/runtime/channel-surface.test.ts",
    ],
    note: "upstream's channel.test.ts also tests `thread.channel` and `thread.messages`; Baton has those blocks in thread.test.ts.",
  },
  {
    upstream: "packages/chat/src/message.test.ts",
    baton: ["packages/core/test/message.test.ts", "packages/core/test/message-subject.test.ts"],
  },
  {
    upstream: "packages/chat/src/serialization.test.ts",
    baton: [
      "packages/core/test/message.test.ts",
      "packages/core/test/serialization.test.ts",
      "packages/core/test/runtime/serialization.test.ts",
    ],
  },
  {
    upstream: "packages/chat/src/thread-history.test.ts",
    baton: ["packages/core/test/runtime/thread-history.test.ts"],
  },
  {
    upstream: "packages/chat/src/errors.test.ts",
    baton: ["packages/core/test/errors.test.ts"],
  },
  {
    upstream: "packages/chat/src/logger.test.ts",
    baton: ["packages/core/test/logger.test.ts"],
  },
  // content: markdown and emoji
  {
    upstream: "packages/chat/src/markdown.test.ts",
    baton: [
      "packages/core/test/content/markdown.test.ts",
      "packages/core/test/content/converter.test.ts",
    ],
    note: "the BaseFormatConverter block of upstream's markdown.test.ts is in converter.test.ts.",
  },
  {
    upstream: "packages/chat/src/emoji.test.ts",
    baton: ["packages/core/test/content/emoji.test.ts"],
  },
  // content: cards and modals
  {
    upstream: "packages/chat/src/cards.test.ts",
    baton: [
      "packages/core/test/content/cards.test.ts",
      "packages/core/test/content/cards-validation.test.ts",
      "packages/core/test/content/cards-fallback-text.test.ts",
    ],
  },
  {
    upstream: "packages/chat/src/modals.test.ts",
    baton: [
      "packages/core/test/content/modals.test.ts",
      "packages/core/test/content/modals-validation.test.ts",
    ],
  },
  {
    upstream: "packages/chat/src/jsx-runtime.test.ts",
    baton: [
      "packages/core/test/content/jsx-runtime.test.ts",
      "packages/core/test/content/jsx-runtime-types.test.ts",
    ],
  },
  {
    upstream: "packages/chat/src/jsx-runtime.test.tsx",
    baton: [
      "packages/core/test/content/jsx-runtime.test.tsx",
      "packages/core/test/content/jsx-components.test.tsx",
    ],
  },
  {
    upstream: "packages/chat/src/jsx-react.test.tsx",
    baton: ["packages/core/test/content/jsx-react.test.ts"],
    note: "upstream builds its React elements by hand, so the port needs no React and no JSX: a .ts file.",
  },
  // streaming
  {
    upstream: "packages/chat/src/streaming-markdown.test.ts",
    baton: ["packages/core/test/content/streaming-markdown.test.ts"],
  },
  {
    upstream: "packages/chat/src/from-full-stream.test.ts",
    baton: ["packages/core/test/content/from-full-stream.test.ts"],
  },
  // ai: `@baton/core/ai` (toAiMessages and the AI SDK tools)
  {
    upstream: "packages/chat/src/ai/messages.test.ts",
    baton: ["packages/core/test/ai/to-ai-messages.test.ts"],
  },
  {
    upstream: "packages/chat/src/ai/index.test.ts",
    baton: [
      "packages/core/test/ai/create-chat-tools.test.ts",
      "packages/core/test/ai/read-scope.test.ts",
    ],
    note: 'the "read scope" block of upstream\'s index.test.ts is in read-scope.test.ts.',
  },
  // adapter-twilio
  ...twilioMappings(),
  // adapter-telegram
  ...telegramMappings(),
  // adapter-slack
  ...slackMappings(),
  // adapter-teams
  ...teamsMappings(),
  {
    upstream: "packages/state-memory/src/index.test.ts",
    baton: [CONFORMANCE_CASES, "packages/state-memory/test/**/*.test.ts"],
  },
  {
    upstream: "packages/state-redis/src/index.test.ts",
    baton: [CONFORMANCE_CASES, "packages/state-redis/test/**/*.test.ts"],
  },
  {
    upstream: "packages/state-pg/src/index.test.ts",
    baton: [CONFORMANCE_CASES, "packages/state-pg/test/**/*.test.ts"],
  },
];

/** Every Baton test file, for spotting a missing title that a file outside the mapping has. */
export const ALL_BATON_TESTS: readonly string[] = [
  "packages/*/test/**/*.test.ts",
  "packages/*/test/**/*.test.tsx",
  "packages/*/src/**/*.test.ts",
  CONFORMANCE_CASES,
];
