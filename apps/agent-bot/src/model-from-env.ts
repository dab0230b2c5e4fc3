import { createOpenAI } from "@ai-sdk/openai";
import type { Clock, Logger } from "@baton/core";
import type { LanguageModel } from "ai";
import { createLocalModel } from "./local-model.js";

/** The model the bot runs, and what to log about it (never the key). */
export interface ChosenModel {
  readonly model: LanguageModel;
  readonly kind: "openai" | "local";
  readonly description: string;
}

/** The OpenAI model used when `OPENAI_MODEL` does not name one: small, fast, tool-capable. */
export const DEFAULT_OPENAI_MODEL = "gpt-4o-mini";

/**
 * Picks the model: with `OPENAI_API_KEY` set, OpenAI's `OPENAI_MODEL` (default
 * {@link DEFAULT_OPENAI_MODEL}) through `@ai-sdk/openai`, at `OPENAI_BASE_URL` when set (a proxy
 * or an OpenAI-compatible server); without a key, the deterministic local model, paced on
 * `clock`. Building the provider makes no request: the first answer does. Any other AI SDK 6
 * provider fits here the same way, since the bot needs only a `LanguageModel`.
 */
export function modelFromEnv(
  env: Record<string, string | undefined>,
  logger: Logger,
  clock?: Clock,
): ChosenModel {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (apiKey) {
    const modelId = env.OPENAI_MODEL?.trim() || DEFAULT_OPENAI_MODEL;
    const baseURL = env.OPENAI_BASE_URL?.trim();
    const openai = createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}) });
    return {
      model: openai(modelId),
      kind: "openai",
      description: `OpenAI ${modelId}${baseURL ? ` at ${baseURL}` : ""}`,
    };
  }
  if (env.OPENAI_MODEL)
    logger.warn("OPENAI_MODEL is set without OPENAI_API_KEY: using the local model");
  return {
    model: createLocalModel(clock === undefined ? {} : { clock }),
    kind: "local",
    description: "the local model (deterministic, offline)",
  };
}
