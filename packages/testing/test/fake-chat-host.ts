import {
  type Adapter,
  type ChatHost,
  type DeliveryResult,
  type Message,
  type ProcessOptions,
  type ReceiveResult,
  type StateAdapter,
  silentLogger,
} from "@baton/core";

/** One `processMessage` call seen by {@link createFakeChatHost}. */
export interface ProcessedMessage {
  adapter: Adapter;
  threadId: string;
  message: Message;
  options: ProcessOptions | undefined;
}

/**
 * A stand-in for the runtime, for testing the mock adapter's webhook in isolation: it records
 * `processMessage` and `receiveMessage` calls, and rejects with `rejectWith` when set.
 */
export function createFakeChatHost(state?: StateAdapter): ChatHost & {
  processed: ProcessedMessage[];
  rejectWith: unknown;
} {
  const host = {
    processed: [] as ProcessedMessage[],
    rejectWith: undefined as unknown,
    async processMessage(
      adapter: Adapter,
      threadId: string,
      message: Message | (() => Promise<Message>),
      options?: ProcessOptions,
    ): Promise<DeliveryResult> {
      if (host.rejectWith !== undefined) throw host.rejectWith;
      const resolved = typeof message === "function" ? await message() : message;
      host.processed.push({ adapter, threadId, message: resolved, options });
      return { outcome: "handled" };
    },
    async receiveMessage(
      adapter: Adapter,
      threadId: string,
      message: Message | (() => Promise<Message>),
      options?: ProcessOptions,
    ): Promise<ReceiveResult> {
      await host.processMessage(adapter, threadId, message, options);
      return { outcome: "accepted" };
    },
    processAction: notUsed,
    processReaction: notUsed,
    processSlashCommand: notUsed,
    processMessageUpdated: notUsed,
    processMessageDeleted: notUsed,
    processModalSubmit: () => notUsed().then(() => undefined),
    processModalClose: notUsed,
    processOptionsLoad: () => notUsed().then(() => undefined),
    getState(): StateAdapter {
      if (!state) throw new Error("the fake host has no state");
      return state;
    },
    getUserName: () => "bot",
    getLogger: () => silentLogger,
  };
  return host;
}

async function notUsed(): Promise<void> {
  throw new Error("not used by these tests");
}
