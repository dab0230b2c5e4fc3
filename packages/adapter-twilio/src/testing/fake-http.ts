import type { IncomingMessage, ServerResponse } from "node:http";
import type { FakeAnswer } from "./fake-content.js";

/** The fake's HTTP plumbing: JSON answers and form bodies, as Twilio's API speaks them. */

export function send(response: ServerResponse, status: number, body: unknown): void {
  const text = body === undefined ? "" : JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json" });
  response.end(text);
}

export function reply(response: ServerResponse, answer: FakeAnswer): void {
  send(response, answer.status, answer.body);
}

export function empty(response: ServerResponse): void {
  response.writeHead(204);
  response.end();
}

export function formOf(text: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = params[name];
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}

export function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function many(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
