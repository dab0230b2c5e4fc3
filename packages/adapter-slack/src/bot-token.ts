import { ConfigError } from "@baton/core";

/**
 * The configured bot token: the token itself, or a function that gives the current one. A
 * function is called at every use, so a token rotated behind it is picked up without a restart;
 * it must answer synchronously (WebClient access, `adapter.client`, is synchronous).
 */
export type SlackBotToken = string | (() => string);

/** Adds a problem when `value` is neither a token string nor a synchronous function. */
export function checkBotTokenSource(problems: string[], value: unknown): void {
  if (value === undefined || typeof value === "string") return;
  if (typeof value !== "function") {
    problems.push("botToken must be a string (xoxb-…) or a function returning one");
  } else if (Object.prototype.toString.call(value) === "[object AsyncFunction]") {
    problems.push(
      "botToken must not be an async function: the token is read synchronously (resolve it before creating the adapter, or call Slack inside adapter.withBotToken)",
    );
  }
}

/** The token `source` gives now; throws a ConfigError naming what a resolver gave instead. */
export function currentBotToken(source: SlackBotToken | undefined): string | undefined {
  if (typeof source !== "function") return source;
  const token: unknown = source();
  if (typeof token === "string" && token !== "") return token;
  const thenable = typeof (token as { then?: unknown } | null)?.then === "function";
  throw new ConfigError([
    thenable
      ? "slack adapter: the botToken function returned a Promise; it must return the token synchronously"
      : `slack adapter: the botToken function returned ${token === "" ? "an empty string" : typeof token}, not a token`,
  ]);
}
