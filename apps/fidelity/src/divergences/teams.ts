import { divergencesOf } from "./divergence.js";

const T = "packages/adapter-teams/src";
const ADR = "docs/adr/0023-teams-sdk-and-errors.md";

const FILES =
  "not ported: the bodies of these two 4.38.1 index.test.ts cases are in none of the upstream index.test.ts revisions the reference index holds (searched by title), so their inputs and expectations are unknown; Baton's attachment fetchers (file cards anonymously, connector content with the bot token, rehydration re-checking the origin) are covered by test/attachments.test.ts";
const INPUT_CARDS =
  "not built: upstream's input-request cards (inputRequestToTeamsAdaptiveCard / parseTeamsInputResponse: a prompt whose answer comes back as the action `input:<requestId>`) serve its core's input requests; Baton's core has no input requests, and its adapters post only core's card model, so a standalone Adaptive Card builder would have no way to be posted";

/** `packages/adapter-teams/src/*`: upstream's Teams adapter. */
export const TEAMS_DIVERGENCES = [
  ...divergencesOf(`${T}/graph-api.test.ts`, [
    {
      kind: "deferred",
      titles: ["preserves an explicit group-chat conversation type"],
      reason:
        "not built: Baton's thread ids carry no conversation type (the 4.38 id format) and the adapter has no listThreads over Graph; group vs personal is read from the conversation id prefix",
    },
  ]),
  ...divergencesOf(`${T}/errors.test.ts`, [
    {
      kind: "divergent",
      describe: [],
      reason:
        "different on purpose: Baton has no AuthenticationError/PermissionError/NetworkError/AdapterRateLimitError family; a refused connector call is a TeamsApiError (an AdapterError keeping status and connector code) and 429 is core's RateLimitError with retryAfterMs — pinned in packages/adapter-teams/test/errors.test.ts",
      link: ADR,
    },
  ]),
  ...divergencesOf(`${T}/cards-primitives/index.test.ts`, [
    {
      kind: "deferred",
      titles: [
        "builds and parses input request cards",
        "parses %s input values submitted under the action id",
        "parses freeform text submitted under the freeform input id",
        "returns parse failures for unknown action ids",
      ],
      reason: INPUT_CARDS,
    },
  ]),
  ...divergencesOf(`${T}/api/index.test.ts`, [
    {
      kind: "divergent",
      titles: [
        "throws when the token response omits access_token",
        "throws when the token request fails",
        "rejects combining markdownText with text",
      ],
      reason:
        "different on purpose: Baton has no hand-written connector client — the Teams SDK's token manager (MSAL, a token factory or a managed identity) mints tokens and its Client takes the activity, so there is no token-response parser, no token endpoint status to reject with, and no markdownText parameter to check",
      link: ADR,
    },
    {
      kind: "divergent",
      titles: ["throws TeamsApiError for Connector errors"],
      reason:
        "different on purpose: upstream's case is a 429 from the Connector, rejected as TeamsApiError with status and body; in Baton a 429 is core's RateLimitError with retryAfterMs (pinned in packages/adapter-teams/test/errors.test.ts), and other refusals are TeamsApiError keeping status and connector code (packages/adapter-teams/test/api.test.ts)",
      link: ADR,
    },
  ]),
  ...divergencesOf(`${T}/index.test.ts`, [
    {
      kind: "deferred",
      titles: [
        "authenticates trusted inline attachment downloads",
        "preserves anonymous fetch overrides during rehydration",
      ],
      reason: FILES,
    },
    {
      kind: "deferred",
      titles: ["keeps the legacy ID when the conversation type agrees with its prefix"],
      reason:
        "not built: upstream 4.41 can carry the conversation type in the thread id; Baton's ids hold conversation id and service URL only (the 4.38 format), and group vs personal is read from the conversation id prefix",
    },
    {
      kind: "divergent",
      titles: ["should handle send failure by calling handleTeamsError"],
      reason:
        "different on purpose: a 401 from the connector rejects with TeamsApiError (status 401), not AuthenticationError — Baton's one adapter error family; pinned in packages/adapter-teams/test/errors.test.ts",
      link: ADR,
    },
    {
      kind: "divergent",
      titles: [
        "should handle targeted send failure by calling handleTeamsError",
        "should translate Teams API failures",
      ],
      reason:
        "different on purpose: upstream passes a failed targeted send and a failed reaction call through handleTeamsError into its AuthenticationError/PermissionError/NetworkError/AdapterRateLimitError family; Baton has the Teams SDK's client instead of a REST client, and a refused call rejects with TeamsApiError keeping the connector's status and code — pinned in packages/adapter-teams/test/outbound.test.ts",
      link: ADR,
    },
    {
      kind: "divergent",
      titles: ["exposes protected members and methods to subclasses"],
      reason:
        "different on purpose: TeamsAdapter keeps its SDK host, API client and State keys private; bots extend it through adapter events (onConversationUpdate, onInstallationUpdate) and the exported building blocks (TeamsApi, TeamsHost, cardToAdaptiveCard, TeamsFormatConverter), not by subclassing",
      link: ADR,
    },
  ]),
  ...divergencesOf(`${T}/webhook/index.test.ts`, [
    {
      kind: "divergent",
      titles: ["reads request bodies without verifying JWTs"],
      reason:
        "different on purpose: Baton never reads an activity the Teams SDK has not authenticated — there is no unverified reader to call",
      link: ADR,
    },
    {
      kind: "divergent",
      titles: [
        "parses message activities with continuation and mention state",
        "extracts continuation from channelData fallbacks",
      ],
      reason:
        "different on purpose: Baton has no continuation object; the thread id carries conversation and service URL, and the adapter keeps each conversation's and user's reference (service URL, tenant, bot id) in the State for proactive posts — mention state is pinned in test/webhook.test.ts",
      link: ADR,
    },
  ]),
];
