import { divergencesOf } from "./divergence.js";

/** The ADR of Baton's deliberate Slack differences. */
const ADR = "docs/adr/0022-slack-message-ids-and-mrkdwn.md";

const ASYNC_BOT_TOKEN =
  "not built: an async botToken resolver (upstream's block tests sync and async resolvers together); Baton reads the token synchronously at every call and refuses async resolvers, pinned in packages/adapter-slack/test/bot-token.test.ts";
const SOCKET_MODE =
  "not ported yet: socket mode is built on @slack/socket-mode and pinned against the fake's WebSocket endpoint in packages/adapter-slack/test/socket.test.ts, but upstream's socket blocks test its internal routeSocketEvent / forwarding API and multi-workspace tokens, which Baton does not have";
/** The ADR of Baton's Slack user names: from the cache before the answer, looked up after it. */
const NAMES_ADR = "docs/adr/0027-slack-names-from-cache-before-the-answer.md";
const NAMES_AFTER_ANSWER =
  "different on purpose: the webhook asks Slack nothing before its answer, so inbound <@U…>, <#C…> and the author are named from the instance's cache, and what it lacks is looked up after the answer and named from the next message on (ADR 0027); pinned by the '(Baton: …)' tests of packages/adapter-slack/test/user-names.test.ts and user-names-events.test.ts";
const BARE_MENTIONS =
  "different on purpose: a bare @name is sent as <@U…> when the reverse name index names the user and as typed otherwise, never as <@name> (ADR 0027); pinned with upstream's inputs in packages/adapter-slack/test/mentions-outbound.test.ts ('bare @name in outbound text …')";
/** The ADR of Slack edits and unfurls. */
const EDITS_ADR = "docs/adr/0030-slack-hidden-edits-are-edits.md";
const HIDDEN_EDITS =
  "different on purpose: a message_changed that carries edited is an edit whether or not Slack marks it hidden (Slack's documented payload always is), so it reaches onMessageUpdated; only unfurls without edited, unchanged text and tombstones are dropped (ADR 0030); pinned by packages/adapter-slack/test/link-unfurls.test.ts 'dispatches an edit Slack marks hidden as an update (Baton: ADR 0030)'";
const RENDER_FORMATTED =
  "different on purpose: renderFormatted gives the mrkdwn Baton sends, not markdown, since Baton renders markdown to mrkdwn itself instead of sending Slack's markdown_text (ADR 0022); pinned by packages/adapter-slack/test/parse.test.ts 'renders AST to Slack mrkdwn, not markdown (Baton: no markdown_text)'";
const SUBCLASS =
  "not ported yet: upstream's protected hooks for subclasses are not part of SlackAdapter's API";
const VERIFIER =
  "not built: the webhookVerifier option (custom request verification); Baton verifies every request with the signing secret through bolt";
const BLOCKS_RENDERER =
  "different on purpose: @baton/adapter-slack/blocks renders cards with the adapter's own renderer, so its blocks are the ones a post sends: text over a limit is cut with a trailing … (149 characters + …), and a table past the native one is core's ASCII table with its header rule; pinned in packages/adapter-slack/test/blocks.test.ts ('Slack Block Kit primitives where Baton differs')";
const FALLBACK_CONTROLS =
  "different on purpose: a card's fallback text lists its controls ([OK]) on every Baton adapter (ADR 0018); pinned in packages/adapter-slack/test/blocks.test.ts 'lists the card's controls in Slack fallback text (Baton: ADR 0018)'";
const CARD_MARKDOWN =
  "different on purpose: CardText is markdown in Baton (ADR 0022: one rendering rule for text, cards and edits), so *x* is italic and becomes _x_; pinned in packages/adapter-slack/test/cards.test.ts 'reads *single asterisks* in CardText as markdown italics (Baton: CardText is markdown)'";
const MARKDOWN_TEXT =
  "different on purpose: Baton renders markdown to mrkdwn text itself instead of sending Slack's markdown_text (ADR 0022); pinned by format.test.ts 'renders markdown to mrkdwn text (Baton: no markdown_text)'";
const DEDUPE_FIRST =
  "different on purpose: every Slack message delivery, first or retry, takes the core's one atomic dedupe mark in the State (DESIGN §5), because a message and its app_mention twin arrive as two first deliveries (ADR 0022)";

/** `packages/adapter-slack/src/*`: upstream's Slack adapter (issue 12). */
export const SLACK_DIVERGENCES = [
  ...divergencesOf("packages/adapter-slack/src/blocks/index.test.ts", [
    {
      kind: "divergent",
      titles: [
        "truncates header text to Slack's header block limit",
        "falls back to ASCII tables after one native table",
      ],
      reason: BLOCKS_RENDERER,
      link: "docs/adr/0003-upstream-compatibility-policy.md",
    },
    {
      kind: "divergent",
      titles: ["generates Slack fallback text"],
      reason: FALLBACK_CONTROLS,
      link: "docs/adr/0018-cards-and-modals-are-validated-data.md",
    },
  ]),
  ...divergencesOf("packages/adapter-slack/src/cards.test.ts", [
    {
      kind: "divergent",
      titles: ["preserves existing single *asterisk* formatting"],
      reason: CARD_MARKDOWN,
      link: ADR,
    },
  ]),
  ...divergencesOf("packages/adapter-slack/src/index.test.ts", [
    {
      kind: "deferred",
      titles: [
        "should not throw when webhookVerifier is provided without signingSecret",
        "ignores SLACK_SIGNING_SECRET env var when webhookVerifier is configured",
      ],
      reason: VERIFIER,
    },
    { kind: "deferred", describe: ["botToken as function"], reason: ASYNC_BOT_TOKEN },
    {
      kind: "divergent",
      titles: [
        "resolves user mentions in incoming messages via webhook",
        "resolves bare channel mentions in incoming messages",
        "hydrates author email from users.info",
        "resolves incoming <@W…> mentions like U-prefixed ones",
      ],
      reason: NAMES_AFTER_ANSWER,
      link: NAMES_ADR,
    },
    {
      kind: "divergent",
      titles: ["renders AST to standard markdown (Slack now accepts markdown natively)"],
      reason: RENDER_FORMATTED,
      link: ADR,
    },
    {
      kind: "divergent",
      titles: ["should ignore hidden message_changed without unfurl attachments"],
      reason: HIDDEN_EDITS,
      link: EDITS_ADR,
    },
    { kind: "deferred", describe: ["socket mode forwarding - handleWebhook"], reason: SOCKET_MODE },
    { kind: "deferred", describe: ["startSocketModeListener"], reason: SOCKET_MODE },
    { kind: "deferred", describe: ["routeSocketEvent with options"], reason: SOCKET_MODE },
    {
      kind: "deferred",
      describe: ["socket mode - multi-workspace token resolution"],
      reason: SOCKET_MODE,
    },
    {
      kind: "deferred",
      titles: ["logs unhandled event types", "dedupes retried socket deliveries by event_id"],
      reason: SOCKET_MODE,
    },
    { kind: "deferred", describe: ["subclass extensibility"], reason: SUBCLASS },
    {
      kind: "divergent",
      titles: ["does not consult state on first deliveries"],
      reason: DEDUPE_FIRST,
      link: ADR,
    },
  ]),
  ...divergencesOf("packages/adapter-slack/src/markdown.test.ts", [
    {
      kind: "divergent",
      titles: [
        "routes markdown to markdown_text",
        "routes ast to markdown_text via stringifyMarkdown",
        "preserves tables when rendering ast to markdown_text",
        "does not double-wrap existing mentions in markdown",
      ],
      reason: MARKDOWN_TEXT,
      link: ADR,
    },
    {
      kind: "divergent",
      titles: [
        "rewrites bare @mentions in plain strings",
        "rewrites bare @mentions in markdown",
        "converts mentions adjacent to non-word punctuation",
        "does not link @handles inside inline code",
        "does not link @handles inside fenced code",
        "rewrites slash-separated mentions",
        "rewrites mentions after schemeless host punctuation",
        "still rewrites a real mention that follows a URL",
        "preserves schemeless URL handles in response URL markdown",
        "handles malformed angle text without rescanning it",
      ],
      reason: BARE_MENTIONS,
      link: NAMES_ADR,
    },
  ]),
];
