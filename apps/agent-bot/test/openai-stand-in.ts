import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the stand-in received. */
export interface StandInRequest {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: Record<string, unknown>;
}

/** A local OpenAI Responses API (`POST /v1/responses`, streaming) for offline tests. */
export interface OpenAiStandIn {
  /** The base URL to give the provider (`OPENAI_BASE_URL`): `http://127.0.0.1:PORT/v1`. */
  readonly baseUrl: string;
  readonly requests: StandInRequest[];
  /** Lets the held-back rest of the current answer go out (see {@link startOpenAiStandIn}). */
  release(): void;
  close(): Promise<void>;
}

type InputItem = { type?: string; role?: string; output?: unknown; content?: unknown };

const USAGE = { input_tokens: 1, output_tokens: 1 };

/**
 * A stand-in for OpenAI's Responses API, speaking its server-sent events the way
 * `@ai-sdk/openai` parses them. Like an agent model it first calls the `fetchMessages` tool on
 * the thread named in the instructions (`thread: <id>`); once the request carries that tool's
 * output it answers with `answerWords` as text deltas — sending the first `heldAfterWords`, then
 * holding the response open until {@link OpenAiStandIn.release}, so a test can look at the
 * platform mid-stream without any timing.
 */
export async function startOpenAiStandIn(options: {
  readonly answer: (messagesRead: number) => string;
  readonly heldAfterWords: number;
}): Promise<OpenAiStandIn> {
  const requests: StandInRequest[] = [];
  let releaseCurrent: () => void = () => {};
  let released = new Promise<void>((resolve) => {
    releaseCurrent = resolve;
  });

  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    requests.push({ path: request.url ?? "", authorization: request.headers.authorization, body });
    if (request.method !== "POST" || request.url !== "/v1/responses") {
      response.writeHead(404, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: "not found", type: "invalid_request" } }));
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (event: Record<string, unknown>) =>
      response.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    send({
      type: "response.created",
      response: { id: `resp_${requests.length}`, created_at: 1_767_225_600, model: body.model },
    });
    const input = (body.input as InputItem[] | undefined) ?? [];
    const toolOutput = input.find((item) => item.type === "function_call_output");
    if (toolOutput === undefined) {
      const item = {
        type: "function_call",
        id: "fc_1",
        call_id: "call_1",
        name: "fetchMessages",
        arguments: JSON.stringify({ threadId: threadIdIn(body), limit: 20 }),
      };
      send({ type: "response.output_item.added", output_index: 0, item });
      send({
        type: "response.output_item.done",
        output_index: 0,
        item: { ...item, status: "completed" },
      });
      send({ type: "response.completed", response: { usage: USAGE } });
      response.end();
      return;
    }
    const item = { type: "message", id: "msg_1" };
    send({ type: "response.output_item.added", output_index: 0, item });
    const words = options.answer(messagesIn(toolOutput.output)).split(" ");
    for (const [index, word] of words.entries()) {
      if (index === options.heldAfterWords) await released;
      send({
        type: "response.output_text.delta",
        item_id: "msg_1",
        delta: index === 0 ? word : ` ${word}`,
      });
    }
    send({ type: "response.output_item.done", output_index: 0, item });
    send({ type: "response.completed", response: { usage: USAGE } });
    response.end();
  };

  const server = createServer((request, response) => {
    serve(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    release() {
      releaseCurrent();
      released = new Promise<void>((resolve) => {
        releaseCurrent = resolve;
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function threadIdIn(body: Record<string, unknown>): string {
  const input = (body.input as InputItem[] | undefined) ?? [];
  const texts = [
    typeof body.instructions === "string" ? body.instructions : "",
    ...input.map((item) => (typeof item.content === "string" ? item.content : "")),
  ];
  for (const text of texts) {
    const match = /thread: (\S+)/.exec(text);
    if (match?.[1]) return match[1];
  }
  return "unknown";
}

/** How many messages the tool's output (JSON text, as the provider sends it back) holds. */
function messagesIn(output: unknown): number {
  try {
    const parsed = (typeof output === "string" ? JSON.parse(output) : output) as {
      messages?: unknown[];
    };
    return Array.isArray(parsed?.messages) ? parsed.messages.length : -1;
  } catch {
    return -1;
  }
}
