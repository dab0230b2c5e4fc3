import { afterEach, describe, expect, it } from "vitest";
import { createTwilioAdapter } from "../src/index.js";
import { BOT_NUMBER, CUSTOMER, createTwilioHarness, SMS_THREAD } from "./twilio-harness.js";

const harnesses: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
async function harness(...args: Parameters<typeof createTwilioHarness>) {
  const created = await createTwilioHarness(...args);
  harnesses.push(created);
  return created;
}

describe("TwilioAdapter", () => {
  it("derives the channel id from a thread's sender", () => {
    const adapter = createTwilioAdapter({});
    const thread = { sender: "whatsapp:+15550000001", recipient: "whatsapp:+15550000002" };

    const threadId = adapter.encodeThreadId(thread);

    expect(threadId).toBe("twilio:whatsapp%3A%2B15550000001:whatsapp%3A%2B15550000002");
    expect(adapter.decodeThreadId(threadId)).toEqual(thread);
    expect(adapter.channelIdFromThreadId(threadId)).toBe("twilio:whatsapp%3A%2B15550000001");
  });

  it("opens dms with the configured phone number", async () => {
    const adapter = createTwilioAdapter({ phoneNumber: BOT_NUMBER });

    await expect(adapter.openDM(CUSTOMER)).resolves.toBe(SMS_THREAD);
  });

  it("routes incoming message webhooks to chat processing", async () => {
    const h = await harness();
    const media = h.fake.addMedia("jpeg bytes", "image/jpeg");
    const seen: Array<{ threadId: string; text: string; attachment: unknown; bytes: string }> = [];
    h.chat.onDirectMessage(async (thread, message) => {
      const data = await message.attachments[0]?.fetchData?.();
      seen.push({
        threadId: thread.id,
        text: message.text,
        attachment: message.attachments[0],
        bytes: new TextDecoder().decode(data),
      });
    });

    const response = await h.deliver(
      h.sms("hello", { NumMedia: "1", MediaUrl0: media, MediaContentType0: "image/jpeg" }),
    );

    expect(response.status).toBe(200);
    expect(await response.text()).toBe("<Response></Response>");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      threadId: SMS_THREAD,
      text: "hello",
      attachment: { mimeType: "image/jpeg", type: "image", url: media },
      bytes: "jpeg bytes",
    });
    // The media was fetched with the account's credentials.
    const mediaRequest = h.fake.requests.find((request) => request.path.includes("/Media/"));
    expect(mediaRequest?.username).toBe(h.fake.accountSid);
  });

  it("rehydrates private media fetchers with adapter credentials", async () => {
    const h = await harness();
    const media = h.fake.addMedia("photo", "image/png");

    const attachment = h.adapter.rehydrateAttachment({
      type: "image",
      fetchMetadata: { twilioMediaUrl: media },
    });
    const data = await attachment.fetchData?.();

    expect(new TextDecoder().decode(data)).toBe("photo");
    expect(h.fake.requests.at(-1)).toMatchObject({ method: "GET", username: h.fake.accountSid });
  });

  it("rejects rehydrated media from an untrusted origin", async () => {
    const h = await harness();
    const before = h.fake.requests.length;

    const attachment = h.adapter.rehydrateAttachment({
      type: "image",
      fetchMetadata: { twilioMediaUrl: "https://attacker.example/steal" },
    });

    await expect(attachment.fetchData?.()).rejects.toThrow(/untrusted/);
    expect(h.fake.requests.length).toBe(before);
  });

  it("posts SMS messages through the Messages API", async () => {
    const h = await harness();

    const sent = await h.adapter.postMessage(SMS_THREAD, "hello");

    expect(sent).toMatchObject({ threadId: SMS_THREAD });
    expect(sent.id).toMatch(/^SM/);
    expect(h.fake.messages).toHaveLength(1);
    expect(h.fake.messages[0]).toMatchObject({
      sid: sent.id,
      body: "hello",
      from: BOT_NUMBER,
      to: CUSTOMER,
    });
  });

  it("keeps messaging service threads stable after sending", async () => {
    const h = await harness({ messagingServiceSid: "MG123" });

    const sent = await h.adapter.postMessage("twilio:MG123:%2B15550000002", "hello");

    expect(sent.threadId).toBe("twilio:MG123:%2B15550000002");
  });

  it("parses inbound REST messages with the sender as author", () => {
    const adapter = createTwilioAdapter({});

    const message = adapter.parseMessage({
      body: "hello",
      date_created: "Tue, 01 Apr 2025 12:00:00 +0000",
      direction: "inbound",
      from: CUSTOMER,
      sid: "SM123",
      to: BOT_NUMBER,
    });

    expect(message.author.userId).toBe(CUSTOMER);
    expect(message.author.isMe).toBe(false);
    expect(message.threadId).toBe(SMS_THREAD);
    expect(message.metadata.dateSent.toISOString()).toBe("2025-04-01T12:00:00.000Z");
  });

  it("posts MMS messages from attachment URLs", async () => {
    const h = await harness();

    await h.adapter.postMessage(SMS_THREAD, {
      markdown: "photo",
      attachments: [{ type: "image", url: "https://example.com/photo.jpg" }],
    });

    expect(h.fake.messages[0]).toMatchObject({
      body: "photo",
      mediaUrls: ["https://example.com/photo.jpg"],
    });
  });

  it("posts media-only MMS messages without a blank body", async () => {
    const h = await harness();

    await h.adapter.postMessage(SMS_THREAD, {
      markdown: "",
      attachments: [{ type: "image", url: "https://example.com/photo.jpg" }],
    });

    const create = h.fake.requests.find((request) => request.path.endsWith("/Messages.json"));
    expect(create?.params).not.toHaveProperty("Body");
    expect(create?.params.MediaUrl).toBe("https://example.com/photo.jpg");
  });

  it("rejects media attachments without public URLs", async () => {
    const h = await harness();

    await expect(
      h.adapter.postMessage(SMS_THREAD, { markdown: "photo", attachments: [{ type: "image" }] }),
    ).rejects.toThrow("public URL");
    expect(h.fake.messages).toHaveLength(0);
  });

  it("uses messaging service senders", async () => {
    const h = await harness({ messagingServiceSid: "MG123" });

    await h.adapter.postMessage("twilio:MG123:%2B15550000002", "hello");

    const create = h.fake.requests.find((request) => request.path.endsWith("/Messages.json"));
    expect(create?.params.MessagingServiceSid).toBe("MG123");
    expect(create?.params).not.toHaveProperty("From");
  });
});
