import { type AdapterPostableMessage, NotSupportedError } from "@baton/core";
import { afterEach, describe, expect, it } from "vitest";
import { createSlackHarness, type SlackHarness } from "./slack-harness.js";

const harnesses: SlackHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness(...args: Parameters<typeof createSlackHarness>) {
  const created = await createSlackHarness(...args);
  harnesses.push(created);
  created.fake.reset();
  return created;
}

const THREAD = "slack:C123:1234567890.000000";
const bytes = (text: string) => new TextEncoder().encode(text);

describe("postMessage", () => {
  it("returns early for file-only post with empty markdown", async () => {
    const h = await harness();
    const files = [{ data: bytes("hello"), filename: "test.txt" }];
    const result = await h.adapter.postMessage(THREAD, {
      markdown: "",
      files,
    } as AdapterPostableMessage);
    const [uploadUrl] = h.fake.callsOf("files.getUploadURLExternal");
    expect(uploadUrl?.args).toMatchObject({ filename: "test.txt", length: "5" });
    const fileId = String(h.fake.store.files.keys().next().value);
    expect(result.id).toBe(`file-${fileId}`);
    expect(result.raw).toEqual({ files, uploadedFileIds: [fileId] });
    expect(new TextDecoder().decode(h.fake.store.files.get(fileId)?.data)).toBe("hello");
    const [complete] = h.fake.callsOf("files.completeUploadExternal");
    expect(complete?.args).toMatchObject({ channel_id: "C123", thread_ts: "1234567890.000000" });
    expect(h.fake.callsOf("chat.postMessage")).toHaveLength(0);
  });

  it("adds uploaded file ids to text posts with files", async () => {
    const h = await harness();
    const result = await h.adapter.postMessage(THREAD, {
      markdown: "uploaded files",
      files: [
        { data: bytes("one"), filename: "one.txt" },
        { data: bytes("two"), filename: "two.txt" },
      ],
    } as AdapterPostableMessage);
    const ids = [...h.fake.store.files.keys()];
    expect(ids).toHaveLength(2);
    const posted = h.fake.store.messages.at(-1);
    expect(posted?.text).toBe("uploaded files");
    expect(result.id).toBe(`${h.fake.teamId}:C123:${posted?.ts}`);
    expect(result.raw).toMatchObject({ ok: true, ts: posted?.ts, uploadedFileIds: ids });
    expect([...h.fake.store.files.values()].every((file) => file.completed)).toBe(true);
  });

  it("rejects a post whose file Slack refuses, without posting its text", async () => {
    const h = await harness();
    await expect(
      h.adapter.postMessage(THREAD, {
        markdown: "hi",
        files: [{ data: new Uint8Array(0), filename: "empty.txt" }],
      } as AdapterPostableMessage),
    ).rejects.toThrow(/files\.uploadV2/);
    expect(h.fake.callsOf("chat.postMessage")).toHaveLength(0);
  });

  it("still refuses files on edits, which Slack cannot attach files to", async () => {
    const h = await harness();
    await expect(
      h.adapter.editMessage(THREAD, "1234567890.000001", {
        markdown: "x",
        files: [{ data: bytes("a"), filename: "a.txt" }],
      } as AdapterPostableMessage),
    ).rejects.toBeInstanceOf(NotSupportedError);
    expect(h.fake.calls).toHaveLength(0);
  });
});
