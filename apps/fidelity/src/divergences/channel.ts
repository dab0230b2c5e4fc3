import { divergencesOf } from "./divergence.js";

/** `packages/chat/src/channel.test.ts`: the Channel handle, `thread.channel`, `thread.messages`. */
export const CHANNEL_DIVERGENCES = divergencesOf("packages/chat/src/channel.test.ts", []);
