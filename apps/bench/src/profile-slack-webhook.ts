import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import type { Implementation } from "./bench-bot.js";
import { measureSlackWebhook } from "./slack-webhook.js";

// Profiles only the measured bursts of the Slack webhook scenario (from the first request handed
// over to the last answer: no module loading, warm-up or handler settling) for one
// implementation, and writes the last burst's profile (the earlier ones warm the JIT up):
//   node --conditions=@baton/source --import tsx src/profile-slack-webhook.ts baton 5 /tmp/s.cpuprofile
// then `src/profile-summary.ts /tmp/s.cpuprofile 40`. Baton runs from TypeScript sources here:
// tsx keeps function names by wrapping closures in `__name`, a cost the built packages lack.
const implementation = process.argv[2] ?? "baton";
if (implementation !== "baton" && implementation !== "upstream") {
  throw new Error(
    `implementation must be baton or upstream, got ${JSON.stringify(implementation)}`,
  );
}
const bursts = Number(process.argv[3] ?? 3);
if (!Number.isInteger(bursts) || bursts < 1) {
  throw new Error(`bursts must be a positive integer, got ${JSON.stringify(process.argv[3])}`);
}
const out = process.argv[4] ?? `/tmp/slack-webhook-${implementation}.cpuprofile`;
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 100 });
let last: unknown;
for (let burst = 0; burst < bursts; burst += 1) {
  const m = await measureSlackWebhook(implementation as Implementation, {
    mentions: 1_000,
    handlerMs: 200,
    aroundBurst: {
      before: async () => {
        await session.post("Profiler.start");
      },
      after: async () => {
        last = (await session.post("Profiler.stop")).profile;
      },
    },
  });
  console.log(
    `${implementation} burst ${burst + 1}: p50 ${m.p50Ms.toFixed(1)} ms, p99 ${m.p99Ms.toFixed(1)} ms, ` +
      `answered ${m.answered}, handled ${m.handled}`,
  );
}
await writeFile(out, JSON.stringify(last));
console.log(`wrote ${out}`);
session.disconnect();
process.exit(0);
