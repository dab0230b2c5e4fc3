import { afterEach, describe, expect, it } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

const THREAD = "slack:D123:1234567890.000000";

/**
 * A harness whose adapter knows users by name the way it learns them in production: each user
 * exists in the fake workspace and was looked up once (`getUser`), which indexes its names.
 */
async function harnessKnowing(...users: Array<{ id: string; name: string }>) {
  const h = await createSlackHarness();
  harnesses.push(h);
  for (const user of users) {
    h.fake.addUser(user);
    expect(await h.adapter.getUser(user.id)).not.toBeNull();
  }
  h.fake.reset();
  return h;
}

/** Streams `parts` into the DM thread, one append window (a second) before each part. */
async function streamParts(h: SlackHarness, ...parts: string[]) {
  const clock = h.clock;
  async function* stream() {
    for (const part of parts) {
      await clock.advance(1_000);
      yield part;
    }
  }
  return h.adapter.stream(THREAD, stream());
}

/** What reached Slack, in order: each append's markdown, then the stop's. */
function sentPieces(h: SlackHarness): string[] {
  return [
    ...h.fake.callsOf("chat.appendStream").map((c) => String(c.args.markdown_text)),
    ...h.fake.callsOf("chat.stopStream").map((c) => String(c.args.markdown_text ?? "")),
  ];
}

describe("native streaming outgoing mention resolution", () => {
  it("resolves cached @name mentions on the native streaming path", async () => {
    const h = await harnessKnowing({ id: "U_ALICE_1", name: "alice" });
    await streamParts(h, "Thanks, @alice");
    expect(sentPieces(h).join("")).toBe("Thanks, <@U_ALICE_1>");
    expect(h.fake.store.messages.at(-1)?.text).toBe("Thanks, <@U_ALICE_1>");
  });

  it("resolves mentions that span source chunks", async () => {
    const h = await harnessKnowing({ id: "U_ALICE_1", name: "alice" });
    await streamParts(h, "Thanks, @ali", "ce");
    const pieces = sentPieces(h);
    // The half-read name waited for the rest instead of going out as "@ali".
    expect(pieces).toEqual(["Thanks, ", "<@U_ALICE_1>"]);
    expect(pieces.join("")).toBe("Thanks, <@U_ALICE_1>");
  });

  it("resolves mentions on lines committed mid-stream", async () => {
    const h = await harnessKnowing({ id: "U_ALICE_1", name: "alice" });
    await streamParts(h, "Hi @alice\nmore ", "text");
    expect(h.fake.callsOf("chat.appendStream")[0]?.args.markdown_text).toBe(
      "Hi <@U_ALICE_1>\nmore ",
    );
    expect(sentPieces(h).join("")).toBe("Hi <@U_ALICE_1>\nmore text");
  });

  it("leaves ambiguous mentions as plain text", async () => {
    const h = await harnessKnowing(
      { id: "U_ALICE_1", name: "alice" },
      { id: "U_ALICE_2", name: "alice" },
    );
    await streamParts(h, "hey @alice");
    expect(sentPieces(h).join("")).toBe("hey @alice");
  });

  it("disambiguates ambiguous mentions using thread participants", async () => {
    const h = await harnessKnowing(
      { id: "U_ALICE_1", name: "alice" },
      { id: "U_ALICE_2", name: "alice" },
    );
    // The second alice wrote in the thread: the adapter records her as a participant.
    await h.deliver(
      h.envelope({
        type: "message",
        channel_type: "im",
        user: "U_ALICE_2",
        text: "can you help?",
        ts: "1234567890.000100",
        thread_ts: "1234567890.000000",
        channel: "D123",
        team: h.fake.teamId,
      }),
    );
    await h.settle();
    await streamParts(h, "hey @alice");
    expect(sentPieces(h).join("")).toBe("hey <@U_ALICE_2>");
  });

  it("keeps mentions literal inside code fences", async () => {
    const h = await harnessKnowing({ id: "U_ALICE_1", name: "alice" });
    await streamParts(h, "```\n@alice\n", "```\nping @alice");
    const pieces = sentPieces(h);
    // The fence opened in one append and closed in the next: only the mention after it resolves.
    expect(pieces[0]).toBe("```\n@alice\n");
    expect(pieces.join("")).toBe("```\n@alice\n```\nping <@U_ALICE_1>");
  });

  it("keeps a handle in a URL literal when the URL arrives in two chunks", async () => {
    const h = await harnessKnowing({ id: "U_ALICE_1", name: "alice" });
    await streamParts(h, "see https://hackmd.io/", "@alice/notes and ask @alice");
    expect(sentPieces(h).join("")).toBe("see https://hackmd.io/@alice/notes and ask <@U_ALICE_1>");
  });

  it("holds an inline code span until its line ends, so a mention inside stays literal", async () => {
    const h = await harnessKnowing({ id: "U_ALICE_1", name: "alice" });
    await streamParts(h, "run `npm i ", "@alice/tool` then ping @alice\n");
    expect(sentPieces(h).join("")).toBe("run `npm i @alice/tool` then ping <@U_ALICE_1>\n");
  });
});
