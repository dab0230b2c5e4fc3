import type { FrameTree } from "./cpu-profile.js";

// Renders a merged call tree as a flame graph in SVG: callers below, callees stacked above, each
// frame as wide as its share of the samples. Static on purpose (no script): the files are read
// on GitHub and in editors, where a frame's full name and share show as its hover title.

/** How a flame graph is drawn. */
export interface FlameGraphOptions {
  /** The heading above the graph. */
  readonly title: string;
  /** A line under the heading: what was profiled, how many samples. */
  readonly subtitle?: string;
  /** Width of the drawing in px (default 1200). */
  readonly widthPx?: number;
  /** Frames narrower than this share of all samples are left out (default 0.002 = 0.2 %). */
  readonly minShare?: number;
}

const ROW_HEIGHT_PX = 17;
const FONT_SIZE_PX = 11;
/** A generous average glyph width for 11 px sans-serif, so labels never overflow their box. */
const CHAR_WIDTH_PX = 6.6;
const MARGIN_PX = 10;
const HEADER_PX = 48;

/** The colour family of a frame: whose code it is, so the eye finds Baton's own frames. */
export type FrameKind = "baton" | "dependency" | "node" | "engine";

/** Baton's packages and apps, dependencies (upstream `chat` included), Node's internals, V8. */
export function frameKind(label: string): FrameKind {
  if (label.includes("node_modules/")) return "dependency";
  if (/ (packages|apps)\//.test(label)) return "baton";
  if (label.includes("node:")) return "node";
  return "engine";
}

const PALETTE: Record<FrameKind, readonly [number, number]> = {
  // hue and lightness; the hue varies a little per label so neighbours stay apart.
  baton: [28, 62],
  dependency: [200, 68],
  node: [120, 66],
  engine: [0, 78],
};

/** The SVG document of `tree` (from `frameTree`). Deterministic: same tree, same bytes. */
export function renderFlameGraph(tree: FrameTree, options: FlameGraphOptions): string {
  const widthPx = options.widthPx ?? 1_200;
  const minShare = options.minShare ?? 0.002;
  const innerPx = widthPx - 2 * MARGIN_PX;
  const total = Math.max(tree.samples, 1);
  const placed: PlacedFrame[] = [];
  const place = (frame: FrameTree, depth: number, startSamples: number) => {
    placed.push({ frame, depth, startSamples });
    let offset = startSamples;
    for (const child of sortedChildren(frame)) {
      if (child.samples / total >= minShare) place(child, depth + 1, offset);
      offset += child.samples;
    }
  };
  place(tree, 0, 0);
  const rows = Math.max(...placed.map((p) => p.depth)) + 1;
  const heightPx = HEADER_PX + rows * ROW_HEIGHT_PX + MARGIN_PX;
  // The root sits on the bottom row, callees above their callers.
  const yOf = (depth: number) => heightPx - MARGIN_PX - (depth + 1) * ROW_HEIGHT_PX;
  const body = placed.map((p) => frameRect(p, total, innerPx, yOf(p.depth))).join("\n");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${heightPx}" viewBox="0 0 ${widthPx} ${heightPx}" font-family="Verdana, sans-serif" font-size="${FONT_SIZE_PX}">`,
    `<rect width="100%" height="100%" fill="#fdfdf8"/>`,
    `<text x="${widthPx / 2}" y="20" text-anchor="middle" font-size="16">${escapeXml(options.title)}</text>`,
    options.subtitle === undefined
      ? ""
      : `<text x="${widthPx / 2}" y="38" text-anchor="middle" fill="#555">${escapeXml(options.subtitle)}</text>`,
    body,
    "</svg>",
    "",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

/** Widest first, then by label: a stable order, so regenerated graphs diff cleanly. */
function sortedChildren(frame: FrameTree): FrameTree[] {
  return [...frame.children.values()].sort(
    (a, b) => b.samples - a.samples || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
  );
}

interface PlacedFrame {
  readonly frame: FrameTree;
  readonly depth: number;
  /** Samples of the frames left of this one on its row, under the same caller chain. */
  readonly startSamples: number;
}

function frameRect(placed: PlacedFrame, total: number, innerPx: number, yPx: number): string {
  const { frame, startSamples } = placed;
  const x = (startSamples / total) * innerPx;
  const width = (frame.samples / total) * innerPx;
  const share = `${((frame.samples / total) * 100).toFixed(1)} %`;
  const selfShare = `${((frame.selfSamples / total) * 100).toFixed(1)} % self`;
  const title = `${frame.label} — ${share} (${selfShare})`;
  const maxChars = Math.floor((width - 6) / CHAR_WIDTH_PX);
  const text =
    maxChars < 3
      ? ""
      : `<text x="${(x + 3).toFixed(1)}" y="${ROW_HEIGHT_PX - 5}">${escapeXml(clip(frame.label, maxChars))}</text>`;
  return `<g transform="translate(${MARGIN_PX} ${yPx})"><title>${escapeXml(title)}</title><rect x="${x.toFixed(1)}" width="${Math.max(width - 0.5, 0.5).toFixed(1)}" height="${ROW_HEIGHT_PX - 1}" fill="${colour(frame.label)}"/>${text}</g>`;
}

function clip(label: string, maxChars: number): string {
  return label.length <= maxChars ? label : `${label.slice(0, maxChars - 1)}…`;
}

function colour(label: string): string {
  const [hue, lightness] = PALETTE[frameKind(label)];
  let hash = 0;
  for (let index = 0; index < label.length; index += 1) {
    hash = (hash * 31 + label.charCodeAt(index)) >>> 0;
  }
  return `hsl(${hue + (hash % 24)}, 70%, ${lightness + (hash % 10)}%)`;
}

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}
