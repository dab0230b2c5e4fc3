import { readFileSync } from "node:fs";
import { asCpuProfile, sampleStacks } from "./cpu-profile.js";

// Summarizes a V8 .cpuprofile: the top frames by self time, and by total (inclusive) time, as
// Markdown. Usage: node --import tsx src/profile-summary.ts file.cpuprofile [top]
const [file, topText] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const top = Number(topText ?? 25);
const profile = asCpuProfile(JSON.parse(readFileSync(file, "utf8")), file);
const self = new Map<string, number>();
const total = new Map<string, number>();
for (const stack of sampleStacks(profile)) {
  const leaf = stack[0] as string;
  self.set(leaf, (self.get(leaf) ?? 0) + 1);
  // A recursive function counts once per sample in its inclusive time.
  for (const name of new Set(stack)) total.set(name, (total.get(name) ?? 0) + 1);
}
const count = profile.samples.length;
const table = (map: Map<string, number>) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([name, n]) => `| ${((n / count) * 100).toFixed(1)} % | \`${name.replaceAll("|", "\\|")}\` |`,
    )
    .join("\n");
console.log(
  `${count} samples\n\n### Self time\n\n| share | frame |\n| ---: | --- |\n${table(self)}\n`,
);
console.log(`### Total time (inclusive)\n\n| share | frame |\n| ---: | --- |\n${table(total)}`);
