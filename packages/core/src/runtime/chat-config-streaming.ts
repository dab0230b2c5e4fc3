import type { Clock } from "../clock/clock.js";
import { type ConfigProblems, describeValue } from "./config-problems.js";
import type { StreamingSettings } from "./stream-post.js";

/** The streaming options of the Chat config, checked; `undefined` where none was given. */
export interface ResolvedStreamingOptions {
  /** `undefined`: the adapter's default, then 500 ms, applies per stream. */
  readonly streamingUpdateIntervalMs: number | undefined;
  /** `undefined`: upstream's `"..."`; `null`: no placeholder. */
  readonly fallbackStreamingPlaceholderText: string | null | undefined;
}

/**
 * Checks upstream's streaming options: `streamingUpdateIntervalMs` a positive duration,
 * `fallbackStreamingPlaceholderText` a non-empty string or `null`. Problems go to `found`.
 */
export function resolveStreamingOptions(
  found: ConfigProblems,
  intervalMs: unknown,
  placeholder: unknown,
): ResolvedStreamingOptions {
  const streamingUpdateIntervalMs =
    intervalMs === undefined
      ? undefined
      : found.durationMs("streamingUpdateIntervalMs", intervalMs);
  let fallbackStreamingPlaceholderText: string | null | undefined;
  if (placeholder === undefined || placeholder === null) {
    fallbackStreamingPlaceholderText = placeholder;
  } else if (typeof placeholder === "string" && placeholder !== "") {
    fallbackStreamingPlaceholderText = placeholder;
  } else {
    found.add(
      "fallbackStreamingPlaceholderText",
      `must be a non-empty string, or null for no placeholder, got ${describeValue(placeholder)}`,
    );
  }
  return { streamingUpdateIntervalMs, fallbackStreamingPlaceholderText };
}

/** The streaming settings every thread of a Chat gets, from its resolved options and clock. */
export function streamingSettingsOf(
  config: ResolvedStreamingOptions & { readonly clock: Clock },
): StreamingSettings {
  const { streamingUpdateIntervalMs, fallbackStreamingPlaceholderText, clock } = config;
  return {
    clock,
    ...(streamingUpdateIntervalMs === undefined
      ? {}
      : { updateIntervalMs: streamingUpdateIntervalMs }),
    ...(fallbackStreamingPlaceholderText === undefined
      ? {}
      : { placeholderText: fallbackStreamingPlaceholderText }),
  };
}
