import { serverUrlsFromEnv } from "./backends.js";
import { runBench } from "./run-bench.js";

// Drives only Baton's uncontended path (memory State, drop, no-op handler) long enough for a
// CPU profile: `node --cpu-prof --conditions=@baton/source --import tsx src/profile-hot-path.ts`.
const messages = Number(process.argv[2] ?? 20_000);
const [result] = await runBench({
  backends: ["memory"],
  scenarios: ["serial-drop"],
  implementations: ["baton"],
  messages,
  warmupMessages: 1_000,
  urls: serverUrlsFromEnv(),
});
console.log(`${Math.round(result?.measurement.messagesPerSecond ?? 0)} msgs/s`);
process.exit(0);
