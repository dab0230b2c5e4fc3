import { readFileSync } from "node:fs";

// Summarizes a V8 .cpuprofile: the top frames by self time, and by total (inclusive) time, as
// Markdown. Usage: node --import tsx src/profile-summary.ts file.cpuprofile [top]
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const [file, topText] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-summary.ts <file.cpuprofile> [top]");
const top = Number(topText ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);

const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/(packages|apps|node_modules)\//, "$1/").replace(/^file:\/\//, "");
  return `${functionName || "(anonymous)"} ${where ? `${where}:${lineNumber + 1}` : ""}`.trim();
};
const self = new Map<string, number>();
const total = new Map<string, number>();
for (const sample of profile.samples) {
  const leaf = byId.get(sample);
  if (!leaf) continue;
  self.set(label(leaf), (self.get(label(leaf)) ?? 0) + 1);
  const seen = new Set<string>();
  for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
    const node = byId.get(id);
    if (!node) break;
    const name = label(node);
    if (seen.has(name)) continue;
    seen.add(name);
    total.set(name, (total.get(name) ?? 0) + 1);
  }
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
