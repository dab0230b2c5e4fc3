import { describe, expect, it } from "vitest";
import { asCpuProfile, type CpuProfile, frameTree } from "../src/cpu-profile.js";
import { frameKind, renderFlameGraph } from "../src/flame-graph.js";

const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
  id,
  callFrame: { functionName, url, lineNumber: 9 },
  children,
});

// (root) → accept (two V8 nodes for the same function) → acquire / parse, plus idle time.
const PROFILE: CpuProfile = {
  nodes: [
    frame(1, "(root)", "", [2, 4, 6]),
    frame(2, "accept", "file:///w/packages/core/dist/index.js", [3]),
    frame(3, "acquire", "file:///w/packages/state-memory/dist/index.js"),
    frame(4, "accept", "file:///w/packages/core/dist/index.js", [5]),
    frame(5, "parse", "file:///w/node_modules/chat/dist/x.js"),
    frame(6, "(idle)", ""),
  ],
  samples: [3, 3, 5, 6, 6, 2],
};

describe("flame graphs", () => {
  it("merges frames of the same function under one caller and leaves idle samples out", () => {
    const tree = frameTree(PROFILE);

    expect(tree.samples).toBe(4);
    const accept = tree.children.get("accept packages/core/dist/index.js:10");
    expect(accept?.samples).toBe(4);
    expect(accept?.selfSamples).toBe(1);
    expect([...(accept?.children.values() ?? [])].map((f) => [f.label, f.samples])).toEqual([
      ["acquire packages/state-memory/dist/index.js:10", 2],
      ["parse node_modules/chat/dist/x.js:10", 1],
    ]);
    expect(tree.children.has("(idle)")).toBe(false);
  });

  it("draws each frame as wide as its share, callees above callers, with its share as title", () => {
    const svg = renderFlameGraph(frameTree(PROFILE), { title: "a <test>", widthPx: 420 });

    // 400 px inside the margins: all 4 samples, accept 4, acquire 2, parse 1.
    const widths = Object.fromEntries(
      [...svg.matchAll(/<title>(\S+)[^<]*<\/title><rect x="([\d.]+)" width="([\d.]+)"/g)].map(
        (m) => [m[1], { x: Number(m[2]), width: Number(m[3]) }],
      ),
    );
    expect(widths.all).toEqual({ x: 0, width: 399.5 });
    expect(widths.accept).toEqual({ x: 0, width: 399.5 });
    expect(widths.acquire).toEqual({ x: 0, width: 199.5 });
    expect(widths.parse).toEqual({ x: 200, width: 99.5 });
    const rowOf = (name: string) =>
      Number(new RegExp(`translate\\(10 (\\d+)\\)"><title>${name}`).exec(svg)?.[1]);
    expect(rowOf("accept")).toBeLessThan(rowOf("all"));
    expect(rowOf("acquire")).toBeLessThan(rowOf("accept"));
    expect(svg).toContain(
      "<title>acquire packages/state-memory/dist/index.js:10 — 50.0 % (50.0 % self)</title>",
    );
    expect(svg).toContain("a &lt;test&gt;");
    expect(svg).not.toContain("<test>");
  });

  it("leaves out frames narrower than the minimum share and draws the same bytes twice", () => {
    const options = { title: "t", minShare: 0.3 };
    const svg = renderFlameGraph(frameTree(PROFILE), options);

    expect(svg).toContain("<title>acquire");
    expect(svg).not.toContain("<title>parse");
    expect(renderFlameGraph(frameTree(PROFILE), options)).toBe(svg);
  });

  it("colours Baton's frames apart from dependencies, Node and the engine", () => {
    expect(frameKind("accept packages/core/dist/index.js:10")).toBe("baton");
    expect(frameKind("x node_modules/chat/dist/index.js:3")).toBe("dependency");
    expect(frameKind("x node_modules/.pnpm/a/node_modules/@baton/core/x.js:3")).toBe("dependency");
    expect(frameKind("emit node:events:517")).toBe("node");
    expect(frameKind("(garbage collector)")).toBe("engine");
  });

  it("refuses a file that is not a CPU profile, naming it", () => {
    expect(() => asCpuProfile({ nodes: [] }, "x.json")).toThrow(
      'x.json is not a V8 .cpuprofile: it needs "nodes" and "samples" arrays',
    );
  });
});
