import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { parseArgs } from "node:util";
import { serverUrlsFromEnv } from "./backends.js";
import type { BackendName, Implementation } from "./bench-bot.js";
import { runBench } from "./run-bench.js";
import { SCENARIO_NAMES, type ScenarioName } from "./scenarios.js";

// Profiles one implementation's dispatch in one scenario (default: Baton, memory State,
// serial-drop, no-op handler). A first run warms the JIT and is not profiled; only the second
// run is, so module loading and warm-up stay out of the profile:
//   node --conditions=@baton/source --import tsx src/profile-hot-path.ts \
//     --messages 20000 --out /tmp/hot-path.cpuprofile
// then `src/profile-summary.ts /tmp/hot-path.cpuprofile 40`.
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    messages: { type: "string", default: "20000" },
    implementation: { type: "string", default: "baton" },
    scenario: { type: "string", default: "serial-drop" },
    backend: { type: "string", default: "memory" },
    out: { type: "string", default: "/tmp/hot-path.cpuprofile" },
  },
});
const implementation = oneOf("--implementation", values.implementation, ["baton", "upstream"]);
const scenario = oneOf("--scenario", values.scenario, SCENARIO_NAMES);
const backend = oneOf("--backend", values.backend, ["memory", "redis", "postgres"]);
const messages = Number(values.messages);
if (!Number.isInteger(messages) || messages < 1) {
  throw new Error(`--messages must be a positive integer, got ${values.messages}`);
}

const run = () =>
  runBench({
    backends: [backend as BackendName],
    scenarios: [scenario as ScenarioName],
    implementations: [implementation as Implementation],
    messages,
    warmupMessages: 1_000,
    urls: serverUrlsFromEnv(),
  });

await run();
const session = new Session();
session.connect();
await session.post("Profiler.enable");
// 100 µs between samples (V8's default is 1 ms): enough samples for a run of a few seconds.
await session.post("Profiler.setSamplingInterval", { interval: 100 });
await session.post("Profiler.start");
const [result] = await run();
const { profile } = await session.post("Profiler.stop");
session.disconnect();
await writeFile(values.out, JSON.stringify(profile));
console.log(
  `${implementation} ${backend} ${scenario}: ${Math.round(result?.measurement.messagesPerSecond ?? 0)} msgs/s; profile in ${values.out}`,
);
process.exit(0);

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new Error(`${flag} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}
