import type { AdapterPostableMessage } from "@baton/core";
import type { MockPost } from "./mock-adapter-options.js";
import { postableText } from "./mock-call.js";
import type { CallRecord, MockRecorder } from "./mock-recorder.js";

/** The methods whose successful calls count as posts in the thread. */
const POSTING = ["postMessage", "stream"] as const;

/** Successful `postMessage` and finished `stream` calls, in call order, optionally of one thread. */
export function mockPosts(recorder: MockRecorder, threadId?: string): readonly MockPost[] {
  const records = recorder
    .succeeded(POSTING)
    .filter((r) => threadId === undefined || r.threadId === threadId);
  return Object.freeze(
    records.map((r) =>
      Object.freeze({
        threadId: r.threadId,
        text: postedText(r),
        via: r.method as MockPost["via"],
      }),
    ),
  );
}

function postedText(record: CallRecord): string {
  if (record.method === "stream") return (record.args[1] as string[]).join("");
  return postableText(record.args[1] as AdapterPostableMessage);
}
