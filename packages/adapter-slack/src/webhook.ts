import { type ChatHost, readWebhookBody, type WebhookOptions } from "@baton/core";
import { onEventCallback } from "./events.js";
import { routeWithInstallation } from "./installation-routing.js";
import { onInteraction, onSlashCommand } from "./interactions.js";
import {
  parseSlackWebhookBody,
  SlackWebhookParseError,
  type SlackWebhookPayload,
} from "./parse.js";
import { SLACK_SIGNATURE_HEADER, SLACK_TIMESTAMP_HEADER, verifySlackSignature } from "./verify.js";
import { ack, json, problem, type SlackWebhookTarget } from "./webhook-target.js";

const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";

/**
 * A Slack request (Events API, slash command or interactivity) in DESIGN §9's order: method and
 * media type → size limit (413) → signature and timestamp over the raw body (401, before
 * anything is parsed, dispatched or written) → parse (400) → route. `url_verification` is
 * answered only after the signature check.
 */
export async function handleSlackWebhook(
  target: SlackWebhookTarget,
  request: Request,
  options: WebhookOptions = {},
): Promise<Response> {
  const config = target.options;
  if (request.method !== "POST") {
    return problem(405, "METHOD_NOT_ALLOWED", "Slack requests are POST requests");
  }
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type !== JSON_TYPE && type !== FORM_TYPE) {
    return problem(415, "UNSUPPORTED_MEDIA_TYPE", `expected ${JSON_TYPE} or ${FORM_TYPE}`);
  }
  const body = await readWebhookBody(request, config.maxBodyBytes);
  if (body === undefined) return problem(413, "PAYLOAD_TOO_LARGE", "the body is too large");
  const signingSecret = config.signingSecret;
  if (signingSecret === undefined) {
    target.logger().error("slack: a webhook arrived but no signingSecret is set to verify it");
    return problem(401, "UNAUTHORIZED", "the request cannot be verified");
  }
  const verified = verifySlackSignature({
    signingSecret,
    body,
    signature: request.headers.get(SLACK_SIGNATURE_HEADER),
    timestamp: request.headers.get(SLACK_TIMESTAMP_HEADER),
    nowMs: config.clock.now(),
  });
  if (!verified) {
    target.logger().warn("slack: refused a request with a bad or stale signature");
    return problem(401, "UNAUTHORIZED", "the Slack signature or timestamp does not match");
  }
  let payload: SlackWebhookPayload;
  try {
    payload = parseSlackWebhookBody(body, type);
  } catch (error) {
    if (error instanceof SlackWebhookParseError) return problem(400, "BAD_REQUEST", error.message);
    throw error;
  }
  return await routeSlackPayload(
    target,
    payload,
    request.headers.get("x-slack-retry-num"),
    options,
  );
}

/**
 * Routes a verified payload (from a webhook, or from a socket mode envelope). Not `async` on
 * purpose, like {@link routeToHost}: each wrapping promise is one more step every delivery of a
 * burst takes in lockstep before its answer.
 */
export function routeSlackPayload(
  target: SlackWebhookTarget,
  payload: SlackWebhookPayload,
  retryNum: string | null,
  options: WebhookOptions = {},
): Promise<Response> {
  if (payload.kind === "url_verification") {
    return Promise.resolve(json(200, { challenge: payload.challenge }));
  }
  if (payload.kind === "ssl_check" || payload.kind === "other") return Promise.resolve(ack());
  const host = target.host;
  if (host === undefined) {
    return Promise.resolve(
      problem(503, "NOT_INITIALIZED", "the Chat has not initialized the adapter yet"),
    );
  }
  const routing = target.installations;
  if (routing === undefined) return routeToHost(target, host, payload, retryNum, options);
  return routeWithInstallation(routing, payload, options, () =>
    routeToHost(target, host, payload, retryNum, options),
  );
}

function routeToHost(
  target: SlackWebhookTarget,
  host: ChatHost,
  payload: Extract<SlackWebhookPayload, { kind: "event" | "command" | "interaction" }>,
  retryNum: string | null,
  options: WebhookOptions,
): Promise<Response> {
  switch (payload.kind) {
    case "event":
      return onEventCallback(target, host, payload, retryNum, options);
    case "command":
      return Promise.resolve(onSlashCommand(target, host, payload, options));
    case "interaction":
      return onInteraction(target, host, payload, options);
  }
}
