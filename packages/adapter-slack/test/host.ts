import type { ChatHost } from "@baton/core";
import { silentLogger } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";

/** A host for adapter-only tests: a real memory State; every dispatch entry point refuses. */
export function createMockChatHost(): ChatHost {
  const state = createMemoryState();
  const refuse = async () => {
    throw new Error("this test dispatches nothing");
  };
  return {
    processMessage: refuse,
    receiveMessage: refuse,
    processAction: refuse,
    processReaction: refuse,
    processSlashCommand: refuse,
    processMessageUpdated: refuse,
    processMessageDeleted: refuse,
    processModalSubmit: refuse,
    processModalClose: refuse,
    processOptionsLoad: refuse,
    getState: () => state,
    getUserName: () => "bot",
    getLogger: () => silentLogger,
  };
}
