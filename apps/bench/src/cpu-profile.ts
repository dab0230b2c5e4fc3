// Reading V8 `.cpuprofile` files (what `node --cpu-prof` and the inspector's Profiler write):
// the call tree with each node's sample count, labelled the same way for the summary and the
// flame graphs.

/** One node of V8's call tree: a function at one position under one parent. */
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

/** The parts of a `.cpuprofile` read here: the tree and which leaf each sample landed in. */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
}

/** A frame of the merged call tree with how many samples landed in it or below. */
export interface FrameTree {
  readonly label: string;
  /** Samples in this frame or its callees. */
  samples: number;
  /** Samples in this frame itself. */
  selfSamples: number;
  readonly children: Map<string, FrameTree>;
}

/** V8's pseudo-frame for time the thread spent waiting: not work, left out of the shares. */
export const IDLE_LABEL = "(idle)";

/** Throws unless `value` has the shape of a `.cpuprofile`, naming what is missing. */
export function asCpuProfile(value: unknown, source: string): CpuProfile {
  const profile = value as Partial<CpuProfile> | null;
  if (
    typeof profile !== "object" ||
    profile === null ||
    !Array.isArray(profile.nodes) ||
    !Array.isArray(profile.samples)
  ) {
    throw new Error(`${source} is not a V8 .cpuprofile: it needs "nodes" and "samples" arrays`);
  }
  return profile as CpuProfile;
}

/**
 * A frame's label: the function name and where it is, with paths shortened to the package
 * (`packages/core/dist/index.js:12`), so frames of the same function in one file merge.
 */
export function frameLabel(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/(packages|apps|node_modules)\//, "$1/").replace(/^file:\/\//, "");
  return `${functionName || "(anonymous)"} ${where ? `${where}:${lineNumber + 1}` : ""}`.trim();
}

/**
 * The call tree with sibling frames of the same label merged and every sample counted along its
 * stack; idle samples are dropped, so the root's count is the samples that did work.
 */
export function frameTree(profile: CpuProfile): FrameTree {
  const root: FrameTree = { label: "all", samples: 0, selfSamples: 0, children: new Map() };
  for (const stack of sampleStacks(profile)) {
    if (stack[0] === IDLE_LABEL) continue;
    root.samples += 1;
    let frame = root;
    for (let depth = stack.length - 1; depth >= 0; depth -= 1) {
      const label = stack[depth] as string;
      let child = frame.children.get(label);
      if (child === undefined) {
        child = { label, samples: 0, selfSamples: 0, children: new Map() };
        frame.children.set(label, child);
      }
      child.samples += 1;
      frame = child;
    }
    frame.selfSamples += 1;
  }
  return root;
}

/**
 * Each sample's stack as labels, the sampled frame first and the outermost caller last (V8's
 * own "(root)" left out); samples that name no known node are skipped.
 */
export function* sampleStacks(profile: CpuProfile): Generator<string[]> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node.id);
  }
  for (const sample of profile.samples) {
    const stack: string[] = [];
    for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) {
      const node = byId.get(id);
      if (node === undefined) break;
      if (parentOf.has(id)) stack.push(frameLabel(node));
    }
    if (stack.length > 0) yield stack;
  }
}
