import { type Clock, sleep, systemClock } from "@baton/core";
import type { LanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";

/** Options of {@link createLocalModel}. */
export interface LocalModelOptions {
  /** The time source of the pauses between chunks (a fake clock in tests). Default: system. */
  readonly clock?: Clock;
  /** The pause before each text chunk, like a real model's token rate. Default 40 ms. */
  readonly chunkDelayMs?: number;
}

/** The tool the local model calls first: it reads the thread, as a real agent would. */
export const LOCAL_MODEL_TOOL = "fetchMessages";

/** The words of the canned answer, after the part that quotes the question. */
const CANNED =
  "This answer comes from Baton's local model: it runs without a provider key, streams a fixed text at a steady pace and calls one tool, so the bot works offline and its tests are deterministic. Set a provider in src/model-from-env.ts for real answers.";

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

type Prompt = ReadonlyArray<{ role: string; content: unknown }>;

/**
 * A deterministic stand-in for a language model (AI SDK `LanguageModelV3`, built on `ai/test`'s
 * `MockLanguageModelV3`). Its first step calls {@link LOCAL_MODEL_TOOL} on the thread named in
 * the system prompt (`thread: <id>`); once it has the tool's result it streams an answer that
 * says how many messages it read and quotes the last user message, one word per chunk, pausing
 * `chunkDelayMs` on `clock` before each. It honours the call's abort signal between chunks.
 */
export function createLocalModel(options: LocalModelOptions = {}): LanguageModel {
  const clock = options.clock ?? systemClock;
  const delayMs = options.chunkDelayMs ?? 40;
  return new MockLanguageModelV3({
    provider: "baton-local",
    modelId: "canned-agent",
    doStream: async ({ prompt, abortSignal }) => {
      const toolOutput = lastToolOutput(prompt as Prompt);
      const parts =
        toolOutput === undefined
          ? toolCallParts(threadIdIn(prompt as Prompt))
          : textParts(answerText(prompt as Prompt, toolOutput));
      return { stream: paced(parts, clock, delayMs, abortSignal) };
    },
  });
}

/** The answer the local model gives after reading `output` (the tool's result). */
export function answerText(prompt: Prompt, output: unknown): string {
  const read = messageCount(output);
  const question = lastUserText(prompt);
  // A tool error (its output is the error text) is said as such, so it never passes for a read.
  const reading =
    read === undefined
      ? "I could not read this conversation."
      : `I read the last ${read} messages of this conversation.`;
  return `${reading} You asked: "${question}". ${CANNED}`;
}

type StreamPart = Record<string, unknown> & { type: string };

function toolCallParts(threadId: string): StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    {
      type: "tool-call",
      toolCallId: "local-call-1",
      toolName: LOCAL_MODEL_TOOL,
      input: JSON.stringify({ threadId, limit: 20 }),
    },
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage: USAGE },
  ];
}

function textParts(text: string): StreamPart[] {
  const words = text.split(" ");
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t1" },
    ...words.map((word, index) => ({
      type: "text-delta",
      id: "t1",
      delta: index === 0 ? word : ` ${word}`,
    })),
    { type: "text-end", id: "t1" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE },
  ];
}

/** Emits `parts`, pausing before each text delta; an abort ends the stream with an error. */
function paced(
  parts: readonly StreamPart[],
  clock: Clock,
  delayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<never> {
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      const part = parts[index];
      index += 1;
      if (!part) {
        controller.close();
        return;
      }
      if (part.type === "text-delta" && delayMs > 0) await sleep(clock, delayMs, signal);
      controller.enqueue(part as never);
    },
  });
}

function threadIdIn(prompt: Prompt): string {
  for (const message of prompt) {
    if (message.role !== "system" || typeof message.content !== "string") continue;
    const match = /thread: (\S+)/.exec(message.content);
    if (match?.[1]) return match[1];
  }
  return "unknown";
}

function lastToolOutput(prompt: Prompt): unknown {
  for (const message of [...prompt].reverse()) {
    if (message.role !== "tool" || !Array.isArray(message.content)) continue;
    const result = message.content.find(
      (part: { type?: string }) => part?.type === "tool-result",
    ) as { output?: { type?: string; value?: unknown } } | undefined;
    if (result) return result.output?.value ?? null;
  }
  return undefined;
}

function lastUserText(prompt: Prompt): string {
  for (const message of [...prompt].reverse()) {
    if (message.role !== "user") continue;
    const parts = Array.isArray(message.content) ? message.content : [];
    const text = parts
      .filter((part: { type?: string }) => part?.type === "text")
      .map((part: { text?: string }) => part.text ?? "")
      .join(" ");
    // toAiMessages' includeNames prefixes "[name]: "; the quote is of what they wrote.
    return text.replace(/^\[[^\]]*\]:\s*/, "").trim();
  }
  return "";
}

function messageCount(output: unknown): number | undefined {
  const messages = (output as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? messages.length : undefined;
}
