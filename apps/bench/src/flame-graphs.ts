import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { asCpuProfile, frameTree } from "./cpu-profile.js";
import { renderFlameGraph } from "./flame-graph.js";

// Profiles the hot path of both implementations and writes one flame graph per profile to
// docs/flame-graphs/ (what docs/performance.md links to):
//   pnpm --filter @baton/bench flame-graphs
// Each profile runs in a child process of its own (the profilers exit when done), Baton from its
// built packages as the bench runs it. `--render in.cpuprofile out.svg "title"` draws one file.

interface Target {
  readonly file: string;
  readonly title: string;
  readonly args: readonly string[];
}

const MESSAGES = { memory: "20000", redis: "3000", postgres: "3000" } as const;

function hotPathTargets(): Target[] {
  const targets: Target[] = [];
  for (const backend of ["memory", "redis", "postgres"] as const) {
    for (const implementation of ["baton", "upstream"] as const) {
      targets.push({
        file: `${implementation}-${backend}-serial-drop.svg`,
        title: `${implementation === "baton" ? "Baton" : "upstream chat"}: serial-drop on ${backend} State, no-op handler`,
        args: [
          "src/profile-hot-path.ts",
          `--implementation=${implementation}`,
          `--backend=${backend}`,
          "--scenario=serial-drop",
          `--messages=${MESSAGES[backend]}`,
        ],
      });
    }
  }
  for (const implementation of ["baton", "upstream"] as const) {
    targets.push({
      file: `${implementation}-slack-webhook.svg`,
      title: `${implementation === "baton" ? "Baton" : "upstream chat"}: 1 000 signed Slack mentions until the last answer`,
      args: ["src/profile-slack-webhook.ts", implementation, "4"],
    });
  }
  return targets;
}

function render(profileFile: string, svgFile: string, title: string): void {
  const profile = asCpuProfile(JSON.parse(readFileSync(profileFile, "utf8")), profileFile);
  const tree = frameTree(profile);
  const subtitle = `${tree.samples} samples of work at 100 µs (idle left out); hover a frame for its share`;
  writeFileSync(svgFile, renderFlameGraph(tree, { title, subtitle }));
}

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    render: { type: "boolean", default: false },
    out: { type: "string", default: join(import.meta.dirname, "../../../docs/flame-graphs") },
  },
});
if (values.render) {
  const [input, output, title] = positionals;
  if (input === undefined || output === undefined) {
    throw new Error('usage: flame-graphs.ts --render <in.cpuprofile> <out.svg> ["title"]');
  }
  render(input, output, title ?? input);
} else {
  mkdirSync(values.out, { recursive: true });
  for (const target of hotPathTargets()) {
    const profileFile = join(tmpdir(), target.file.replace(/\.svg$/, ".cpuprofile"));
    const args = [...target.args];
    // The two profilers take the output file differently: a flag, or the last positional.
    args.push(args[0] === "src/profile-hot-path.ts" ? `--out=${profileFile}` : profileFile);
    execFileSync(process.execPath, ["--import", "tsx", ...args], { stdio: "inherit" });
    render(profileFile, join(values.out, target.file), target.title);
    console.log(`wrote ${join(values.out, target.file)}`);
  }
}
