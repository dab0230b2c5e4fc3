import {
  type Adapter,
  type ChatHost,
  type Logger,
  readWebhookBody,
  type WebhookOptions,
  webhookErrorResponse,
  webhookProblem,
} from "@baton/core";
import { choiceForReply, type TwilioMenuChoice } from "./cards.js";
import { customerAuthor, inboundThreadId, messageFromWebhook } from "./message.js";
import { optOutKindOf, type TwilioOptOutKind } from "./opt-out.js";
import type { ResolvedTwilioOptions } from "./options.js";
import {
  parseTwilioWebhookBody,
  type TwilioActionWebhook,
  type TwilioStatusWebhook,
  type TwilioTextWebhook,
  TwilioWebhookParseError,
} from "./parse.js";
import {
  formParams,
  signedUrlsFor,
  TWILIO_SIGNATURE_HEADER,
  verifyTwilioSignature,
} from "./verify.js";

/** The choices of the card last posted into a thread, and how they were offered. */
export interface TwilioOpenMenu {
  readonly choices: readonly TwilioMenuChoice[];
  /** True when they went out as WhatsApp quick-reply buttons, false for a numbered menu. */
  readonly quickReply: boolean;
}

/** What the webhook needs from its adapter. */
export interface TwilioWebhookTarget {
  readonly adapter: Adapter;
  readonly host: ChatHost | undefined;
  readonly options: ResolvedTwilioOptions;
  logger(): Logger;
  /**
   * The choices of the card sent as message `messageSid` when given and still remembered, else
   * of the card last posted into the thread, if they are still open.
   */
  menuOf(threadId: string, messageSid?: string): Promise<TwilioOpenMenu | undefined>;
  /** Records an opt-out keyword and tells the bot's handlers. */
  optOut(payload: TwilioTextWebhook, kind: TwilioOptOutKind): Promise<void>;
  /** Remembers a thread's latest inbound message (WhatsApp's typing indicator replies to it). */
  noteInbound(payload: TwilioTextWebhook): void;
  /** Tells the bot's handlers about a delivery status. */
  status(payload: TwilioStatusWebhook, raw: Record<string, string>): Promise<void>;
}

const FORM = "application/x-www-form-urlencoded";

/**
 * True for one of the bot's own addresses (its number, on SMS or WhatsApp): a message from it is
 * the bot's own — a number shared with another system, or a forwarded copy — and never dispatched.
 */
function isBotAddress(options: ResolvedTwilioOptions, address: string): boolean {
  const own = options.phoneNumber;
  return own !== undefined && (address === own || address === `whatsapp:${own}`);
}

/** Twilio's expected answer to a messaging webhook when the bot replies later: empty TwiML. */
export function emptyTwiml(): Response {
  return new Response("<Response></Response>", {
    status: 200,
    headers: { "content-type": "text/xml" },
  });
}

/** Runs `work` after the answer, handed to the host's `waitUntil`; a failure is only logged. */
function detach(
  work: () => Promise<unknown>,
  logger: Logger,
  what: string,
  options: WebhookOptions,
) {
  const task = work().catch((error: unknown) => {
    logger.error(`twilio: ${what} failed`, { error });
  });
  options.waitUntil?.(task);
}

/**
 * A Twilio messaging webhook, in DESIGN §9's order: size limit (413) → signature over the raw
 * form against the configured public URL (403, before anything is parsed or written) → parse
 * (400) → hand to the Chat → empty TwiML at once. Status callbacks and opt-out keywords become
 * adapter events; a numeric reply to an open card menu becomes an action; everything else is a
 * message, answered after acceptance under deferred dispatch.
 */
export async function handleTwilioWebhook(
  target: TwilioWebhookTarget,
  request: Request,
  options: WebhookOptions = {},
): Promise<Response> {
  const { options: config } = target;
  const logger = target.logger();
  if (request.method !== "POST" && request.method !== "GET") {
    return webhookProblem(405, "METHOD_NOT_ALLOWED", "Twilio webhooks are POST (or GET) requests");
  }
  if (request.method === "POST") {
    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (type !== FORM) return webhookProblem(415, "UNSUPPORTED_MEDIA_TYPE", `expected ${FORM}`);
  }
  const body = await readWebhookBody(request, config.maxBodyBytes);
  if (body === undefined) return webhookProblem(413, "PAYLOAD_TOO_LARGE", "the body is too large");
  const urls = signedUrlsFor(
    request,
    [config.webhookUrl, config.statusCallbackUrl],
    config.trustRequestUrl,
  );
  const authToken = config.authToken;
  if (urls.length === 0 || authToken === undefined) {
    logger.error(
      "twilio: a webhook arrived but cannot be verified: set webhookUrl (the public URL Twilio " +
        "calls) and authToken, or trustRequestUrl when request.url is trustworthy",
    );
    return webhookProblem(403, "FORBIDDEN", "the webhook cannot be verified");
  }
  const form =
    request.method === "GET" ? new URL(request.url).searchParams : new URLSearchParams(body);
  const signature = request.headers.get(TWILIO_SIGNATURE_HEADER);
  const params = request.method === "GET" ? {} : formParams(form);
  if (!urls.some((url) => verifyTwilioSignature({ authToken, url, signature, params }))) {
    return webhookProblem(403, "FORBIDDEN", "the Twilio signature does not match");
  }
  const host = target.host;
  if (host === undefined) {
    return webhookProblem(503, "NOT_INITIALIZED", "the Chat has not initialized the adapter yet");
  }
  let payload: ReturnType<typeof parseTwilioWebhookBody>;
  try {
    payload = parseTwilioWebhookBody(form);
  } catch (error) {
    if (error instanceof TwilioWebhookParseError)
      return webhookProblem(400, "BAD_REQUEST", error.message);
    throw error;
  }
  try {
    switch (payload.kind) {
      case "status":
        detach(() => target.status(payload, Object.fromEntries(form)), logger, "status", options);
        return emptyTwiml();
      case "action":
        detach(() => runAction(target, host, payload, options), logger, "action", options);
        return emptyTwiml();
      case "text":
        return await onText(target, host, payload, options);
    }
  } catch (error) {
    return webhookErrorResponse(error);
  }
}

/**
 * A button tap. A tap on the quick reply of a card the adapter posted runs that button's action
 * with the button's own value (the choices of the tapped message, by its
 * `OriginalRepliedMessageSid`, else of the thread's last card); a tap on any other
 * template's button (one the bot sent itself by `contentSid`) runs the action named by its
 * `ButtonPayload`, its `ButtonText` as the value.
 */
async function runAction(
  target: TwilioWebhookTarget,
  host: ChatHost,
  payload: TwilioActionWebhook,
  options: WebhookOptions,
): Promise<void> {
  const threadId = inboundThreadId(payload);
  // A tap on an older card names that card's message: its choices, not the newest card's.
  const menu = await target.menuOf(threadId, payload.originalRepliedMessageSid);
  const choice = menu?.quickReply
    ? menu.choices.find((option) => option.actionId === payload.buttonPayload)
    : undefined;
  const value = choice ? choice.value : (payload.buttonText ?? payload.buttonPayload);
  await host.processAction(
    target.adapter,
    {
      actionId: payload.buttonPayload,
      ...(value === undefined ? {} : { value }),
      user: customerAuthor(payload.from, payload.profileName),
      messageId: payload.messageSid,
      threadId,
    },
    options,
  );
}

async function onText(
  target: TwilioWebhookTarget,
  host: ChatHost,
  payload: TwilioTextWebhook,
  options: WebhookOptions,
): Promise<Response> {
  target.noteInbound(payload);
  const kind = optOutKindOf(payload);
  if (kind !== undefined) {
    await target.optOut(payload, kind);
    // Twilio answers STOP and START itself; only HELP goes on to the bot as a message.
    if (kind !== "help") return emptyTwiml();
  }
  const threadId = inboundThreadId(payload);
  // Quick-reply buttons were never numbered for the customer: a number is then just text.
  const menu = /^\s*\d{1,3}\s*\.?\s*$/.test(payload.body)
    ? await target.menuOf(threadId)
    : undefined;
  const choice = menu && !menu.quickReply ? choiceForReply(payload.body, menu.choices) : undefined;
  if (choice !== undefined) {
    const event = {
      actionId: choice.actionId,
      ...(choice.value === undefined ? {} : { value: choice.value }),
      user: customerAuthor(payload.from, payload.profileName),
      messageId: payload.messageSid,
      threadId,
    };
    const logger = target.logger();
    detach(() => host.processAction(target.adapter, event, options), logger, "action", options);
    return emptyTwiml();
  }
  const receivedAtMs = target.options.clock.now();
  await host.receiveMessage(
    target.adapter,
    threadId,
    async () =>
      messageFromWebhook(
        payload,
        receivedAtMs,
        (attachment) => target.adapter.rehydrateAttachment?.(attachment) ?? attachment,
        (address) => isBotAddress(target.options, address),
      ),
    options,
  );
  return emptyTwiml();
}
