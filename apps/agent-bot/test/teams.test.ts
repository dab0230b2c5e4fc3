import { createTeamsAdapter } from "@baton/adapter-teams";
import {
  createTeamsActivityRequest,
  type FakeBotFramework,
  startFakeBotFramework,
} from "@baton/adapter-teams/testing";
import { TEAMS_PATH } from "@baton/bot-env";
import { createMemoryState } from "@baton/state-memory";
import { createFakeClock } from "@baton/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notices, STOP_ACTION } from "../src/bot.js";
import type { AgentServer } from "../src/server.js";
import { type DrivenModel, eventually, startAgentOn } from "./platform-harness.js";

const USER = { id: "29:user-1", name: "Ada User", aadObjectId: "aad-user-1" };
const PERSONAL_CHAT = "a:personal-user-1";

interface StreamInfo {
  type: string;
  streamType?: string;
  streamSequence?: number;
  streamId?: string;
}

describe("the agent bot on Microsoft Teams (offline fake Bot Framework, signed tokens)", () => {
  let fake: FakeBotFramework;
  let server: AgentServer;
  let model: DrivenModel;
  let sequence = 0;

  beforeAll(async () => {
    fake = await startFakeBotFramework();
    // One fake clock paces the model's words and Teams' stream updates (one per second), so
    // each word the test lets through is one streaming update: the growth is deterministic.
    const clock = createFakeClock();
    const teams = createTeamsAdapter({
      appId: fake.appId,
      token: fake.tokenFactory(),
      cloud: fake.cloud,
      apiUrl: fake.serviceUrl,
      clock,
    });
    ({ server, ...model } = await startAgentOn(teams, TEAMS_PATH, createMemoryState(), clock));
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  /** Teams delivers an activity: signed by the Bot Framework's key, for our app id. */
  const deliver = async (activity: Record<string, unknown>) => {
    sequence += 1;
    const signed = createTeamsActivityRequest({
      fake,
      activity: {
        type: "message",
        id: `activity-${sequence}`,
        serviceUrl: fake.serviceUrl,
        from: USER,
        recipient: { id: `28:${fake.appId}`, name: "agent" },
        conversation: { id: PERSONAL_CHAT, conversationType: "personal" },
        channelId: "msteams",
        ...activity,
      },
    });
    const response = await fetch(`${server.url}${TEAMS_PATH}`, {
      method: "POST",
      headers: signed.headers,
      body: await signed.text(),
    });
    expect(response.status).toBeLessThan(300);
  };

  /** The bot's calls into the personal chat after the first `from` of them. */
  const callsSince = (from: number) =>
    fake.calls.filter((call) => call.conversationId === PERSONAL_CHAT).slice(from);
  const streamInfoOf = (body: Record<string, unknown> | undefined) =>
    ((body?.entities as StreamInfo[] | undefined) ?? []).find((e) => e.type === "streaminfo");
  const typingTexts = (from: number) =>
    callsSince(from)
      .filter((call) => call.body?.type === "typing" && streamInfoOf(call.body))
      .map((call) => String(call.body?.text ?? ""));
  const finalMessage = (from: number) =>
    callsSince(from).find(
      (call) =>
        call.route === "activities.create" && streamInfoOf(call.body)?.streamType === "final",
    );
  const controlCard = (from: number) =>
    callsSince(from).find(
      (call) =>
        call.route === "activities.create" && JSON.stringify(call.body).includes(STOP_ACTION),
    );
  /** What the bot edited its messages to (the control card becomes a notice). */
  const edits = (from: number) =>
    callsSince(from)
      .filter((call) => call.route === "activities.update")
      .map((call) => JSON.stringify(call.body));
  /** The data the card's Stop button submits (Action.Submit's `{ actionId, value }`). */
  const stopData = (body: unknown): Record<string, unknown> | undefined => {
    if (typeof body !== "object" || body === null) return undefined;
    const data = (body as { data?: { actionId?: unknown } }).data;
    if (data?.actionId === STOP_ACTION) return data as Record<string, unknown>;
    for (const value of Object.values(body)) {
      const found = stopData(value);
      if (found) return found;
    }
    return undefined;
  };
  const mark = () => fake.calls.filter((call) => call.conversationId === PERSONAL_CHAT).length;

  it("streams an answer that read the conversation through a tool into a personal chat, natively", async () => {
    const from = mark();
    await deliver({ text: "what is Baton?" });
    const card = await eventually(
      () => controlCard(from),
      (found) => found !== undefined,
    );
    expect(JSON.stringify(card?.body)).toContain(notices.answering);

    // A few words: Teams shows the answer growing, one streaming update per word.
    await model.write(3);
    const growing = await eventually(
      () => typingTexts(from),
      (texts) => texts.length >= 3,
    );
    expect(growing[0]).not.toBe("");
    for (let i = 1; i < growing.length; i += 1) {
      expect(growing[i]!.startsWith(growing[i - 1]!)).toBe(true);
      expect(growing[i]!.length).toBeGreaterThan(growing[i - 1]!.length);
    }
    expect(finalMessage(from)).toBeUndefined();

    await model.finish();
    const final = await eventually(
      () => finalMessage(from),
      (found) => found !== undefined,
    );
    const finalText = String(final?.body?.text ?? "");
    // The tool call's result is in the answer: the local model read the thread before answering.
    expect(finalText).toMatch(/^I read the last [1-9]\d* messages.*You asked: "what is Baton\?"/s);
    expect(finalText).toMatch(/deterministic/);
    for (const shown of typingTexts(from)) expect(finalText.startsWith(shown)).toBe(true);
    const streamSequences = callsSince(from)
      .filter((call) => call.body?.type === "typing")
      .map((call) => streamInfoOf(call.body)?.streamSequence);
    expect(streamSequences).toEqual(streamSequences.map((_, index) => index + 1));
    // The final message closes the stream the first update opened.
    expect(streamInfoOf(final?.body)?.streamId).toBeDefined();
    await eventually(
      () => edits(from),
      (bodies) => bodies.some((body) => body.includes(notices.answered)),
    );
  });

  it("stops an answer mid-stream when the Stop button is clicked, keeping what was said", async () => {
    const from = mark();
    await deliver({ text: "tell me everything" });
    const card = await eventually(
      () => controlCard(from),
      (found) => found !== undefined,
    );
    const data = stopData(card?.body);
    expect(data?.value).toMatch(/^teams:/);
    await model.write(4);
    await eventually(
      () => typingTexts(from),
      (texts) => texts.length >= 2,
    );

    // Action.Submit in a personal chat: a message activity with no text, the card's data as value.
    await deliver({ text: "", value: data });
    // The stop ends the stream with no further word from the model: wait for it in real time,
    // then let the model's clock run on to show that nothing more is said.
    const final = await eventually(
      () => finalMessage(from),
      (found) => found !== undefined,
    );
    await eventually(
      () => edits(from),
      (bodies) => bodies.some((body) => body.includes(notices.stopped)),
    );
    await model.tick(100);
    const finalText = String(final?.body?.text ?? "");
    // What the model said before the click stays; the rest of the answer never comes.
    expect(finalText.startsWith("I read the last")).toBe(true);
    expect(finalText).not.toMatch(/deterministic/);
    for (const shown of typingTexts(from)) expect(finalText.startsWith(shown)).toBe(true);
    expect(
      callsSince(from).filter((call) => streamInfoOf(call.body)?.streamType === "final"),
    ).toHaveLength(1);
    expect(edits(from).some((body) => body.includes(notices.answered))).toBe(false);
  }, 60_000);
});
