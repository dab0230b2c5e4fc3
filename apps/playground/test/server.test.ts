import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Playground, startPlayground } from "../src/server.js";

describe("the playground server", () => {
  let playground: Playground;
  let cookie: string;

  beforeAll(async () => {
    playground = await startPlayground({
      port: 0,
      logger: "silent",
      settings: { handlerSeconds: 0 },
    });
    const page = await fetch(playground.url);
    cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  });

  afterAll(() => playground.close());

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${playground.url}${path}`, { ...init, headers: { cookie, ...(init.headers ?? {}) } });
  const post = (threadName: string, text: string) =>
    api("/api/web/messages", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ threadId: `web:${userId()}:${threadName}`, text }),
    });
  const userId = () => cookie.split("=")[1] ?? "";
  const botTexts = async (threadName: string) =>
    (await playground.adapter.fetchMessages(`web:${userId()}:${threadName}`)).messages
      .filter((message) => message.author.isMe)
      .map((message) => message.text);

  it("serves the page and gives a new visitor a guest cookie, once", async () => {
    expect(cookie).toMatch(/^baton_playground_user=guest-[a-z0-9]{6}$/);
    const again = await api("/");
    expect(again.status).toBe(200);
    expect(again.headers.get("content-type")).toContain("text/html");
    expect(again.headers.get("set-cookie")).toBeNull();
    expect((await fetch(`${playground.url}/app.js`)).status).toBe(200);
    expect((await fetch(`${playground.url}/../package.json`)).status).toBe(404);
  });

  it("refuses the chat API without the guest cookie", async () => {
    const response = await fetch(`${playground.url}/api/web/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "hi" }),
    });
    expect(response.status).toBe(401);
  });

  it("refuses an oversized body with 413 through the node:http bridge", async () => {
    const response = await post("general", "x".repeat(20_000));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: "BODY_TOO_LARGE" });
  });

  it("refuses bad settings and names the problem", async () => {
    const response = await api("/api/settings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ strategy: "fifo", handlerSeconds: -1 }),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toContain("strategy must be one of drop, queue, debounce, burst, concurrent");
    expect(error).toContain("handlerSeconds");
    expect(playground.runtime.settings.strategy).toBe("drop");
  });

  it("restarts the bot with new settings on the same State: a followed thread stays followed", async () => {
    expect((await post("general", "@baton hello")).status).toBe(202);
    await expect.poll(() => botTexts("general")).toHaveLength(1);
    const before = [playground.runtime.instance("A").chat, playground.runtime.instance("B").chat];

    const response = await api("/api/settings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ strategy: "queue", lockScope: "channel" }),
    });
    expect(await response.json()).toMatchObject({
      ok: true,
      settings: { strategy: "queue", lockScope: "channel", handlerSeconds: 0 },
    });
    // Both instances run a new `Chat`.
    expect(playground.runtime.instance("A").chat).not.toBe(before[0]);
    expect(playground.runtime.instance("B").chat).not.toBe(before[1]);

    // No mention: only a subscription, made before the restart, routes it to the bot.
    expect((await post("general", "still there?")).status).toBe(202);
    await expect.poll(() => botTexts("general")).toHaveLength(2);
    expect((await botTexts("general"))[0]).toContain("Answering “still there?”");
  });

  it("ends a browser's event stream on the server when the browser goes away", async () => {
    const controller = new AbortController();
    const response = await api("/api/web/events", { signal: controller.signal });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain("retry:");
    expect(playground.adapter.openStreams).toBe(1);
    controller.abort();
    await expect.poll(() => playground.adapter.openStreams).toBe(0);
  });
});
