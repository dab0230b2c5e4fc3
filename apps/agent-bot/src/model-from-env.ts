import type { Clock, Logger } from "@baton/core";
import type { LanguageModel } from "ai";
import { createLocalModel } from "./local-model.js";

/** The model the bot runs, and what to log about it. */
export interface ChosenModel {
  readonly model: LanguageModel;
  readonly description: string;
}

/**
 * Picks the model. This is the integration point for a real provider: no provider package is a
 * dependency of this app (each pulls its own SDK), so with `OPENAI_API_KEY` set the bot still
 * runs the local model and says so. To use OpenAI, `pnpm --filter @baton/agent-bot add
 * @ai-sdk/openai@^3` and return `openai(env.OPENAI_MODEL ?? "gpt-4o-mini")` here (it reads
 * `OPENAI_API_KEY` itself); any AI SDK 6 provider works the same way.
 */
export function modelFromEnv(
  env: Record<string, string | undefined>,
  logger: Logger,
  clock?: Clock,
): ChosenModel {
  if (env.OPENAI_API_KEY) {
    logger.warn(
      "OPENAI_API_KEY is set, but no provider package is installed: using the local model (see src/model-from-env.ts)",
    );
  }
  return {
    model: createLocalModel(clock === undefined ? {} : { clock }),
    description: "the local model (deterministic, offline)",
  };
}
