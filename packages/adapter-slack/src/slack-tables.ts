import { toPlainText } from "@baton/core";
import type { PhrasingContent, Root, RootContent, Table, TableCell, TableRow } from "mdast";
import type { SlackEvent } from "./parse.js";
import { hasBoldText, slackCellText } from "./slack-table-cells.js";

/**
 * One table of a Slack message, its cells as mrkdwn. `header` is false for a pasted `table` whose
 * first row is not bold: every row is data, so the tree gets an empty header row above them.
 */
export interface SlackTable {
  readonly header: boolean;
  readonly rows: readonly (readonly string[])[];
}

/**
 * The tables of a Slack message, by where they stand relative to its text: `above` are the table
 * blocks before the first block of another kind (a table pasted above the text); `below` are the
 * other table blocks, then those of the author's own attachments.
 */
export interface SlackTables {
  readonly above: readonly SlackTable[];
  readonly below: readonly SlackTable[];
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isTableBlock(block: unknown): boolean {
  return isRecord(block) && (block.type === "table" || block.type === "data_table");
}

/** The table of a block, or undefined for another block or one without rows Slack could show. */
function tableOf(block: unknown): SlackTable | undefined {
  if (!isRecord(block) || !isTableBlock(block) || !Array.isArray(block.rows)) return undefined;
  const rows = block.rows.filter((row): row is unknown[] => Array.isArray(row) && row.length > 0);
  const first = rows[0];
  if (first === undefined) return undefined;
  return {
    // A data_table always names its columns; a pasted table does when its first row is bold.
    header: block.type === "data_table" || first.some(hasBoldText),
    rows: rows.map((row) => row.map(slackCellText)),
  };
}

function tablesIn(blocks: readonly unknown[]): SlackTable[] {
  return blocks.map(tableOf).filter((table): table is SlackTable => table !== undefined);
}

/**
 * Unfurls (of links or of other messages) and app attachments carry someone else's content, not
 * what the author wrote.
 */
function isForeignAttachment(attachment: Json): boolean {
  return (
    attachment.is_msg_unfurl === true ||
    attachment.is_app_unfurl === true ||
    (typeof attachment.from_url === "string" && attachment.from_url !== "") ||
    (typeof attachment.original_url === "string" && attachment.original_url !== "")
  );
}

/**
 * The tables of a Slack message event: its `table` and `data_table` blocks, and those in the
 * blocks of its own (not unfurled) attachments, where Slack puts a table pasted into the
 * composer. Malformed blocks are skipped, as Slack would not show them.
 */
export function slackTablesOf(event: SlackEvent): SlackTables {
  const blocks = Array.isArray(event.blocks) ? event.blocks : [];
  const split = blocks.findIndex((block) => !isTableBlock(block));
  const aboveCount = split === -1 ? blocks.length : split;
  const attachments = Array.isArray(event.attachments) ? event.attachments : [];
  const attached = attachments
    .filter((attachment): attachment is Json => isRecord(attachment))
    .filter((attachment) => !isForeignAttachment(attachment))
    .flatMap((attachment) => (Array.isArray(attachment.blocks) ? tablesIn(attachment.blocks) : []));
  return {
    above: tablesIn(blocks.slice(0, aboveCount)),
    below: [...tablesIn(blocks.slice(aboveCount)), ...attached],
  };
}

/**
 * The mrkdwn of every cell of the message's tables, one per line: what the tables mention, for
 * the names the adapter learns from a message (ADR 0027).
 */
export function slackTablesMrkdwn(tables: SlackTables): string {
  return [...tables.above, ...tables.below]
    .flatMap((table) => table.rows.flat())
    .filter((cell) => cell !== "")
    .join("\n");
}

/** A cell's inline content: the phrasing of its paragraphs; other blocks as their plain text. */
function cellChildren(tree: Root): PhrasingContent[] {
  const children: PhrasingContent[] = [];
  for (const node of tree.children) {
    if (children.length > 0) children.push({ type: "break" });
    if (node.type === "paragraph") children.push(...node.children);
    else children.push({ type: "text", value: toPlainText(node) });
  }
  return children;
}

function tableNode(table: SlackTable, parseCell: (mrkdwn: string) => Root): Table {
  const row = (cells: readonly string[]): TableRow => ({
    type: "tableRow",
    children: cells.map(
      (cell): TableCell => ({
        type: "tableCell",
        children: cell === "" ? [] : cellChildren(parseCell(cell)),
      }),
    ),
  });
  const width = Math.max(...table.rows.map((cells) => cells.length));
  const header = table.header ? [] : [row(Array.from({ length: width }, () => ""))];
  return { type: "table", children: [...header, ...table.rows.map(row)] };
}

/**
 * The message tree with its tables in place: `above` before the text's blocks, `below` after
 * them. `parseCell` reads a cell's mrkdwn as the text is read, so mentions, links and marks in
 * cells come out as they do in the text.
 */
export function withSlackTables(
  text: Root,
  tables: SlackTables,
  parseCell: (mrkdwn: string) => Root,
): Root {
  if (tables.above.length === 0 && tables.below.length === 0) return text;
  const nodes = (list: readonly SlackTable[]): RootContent[] =>
    list.map((table) => tableNode(table, parseCell));
  return {
    ...text,
    children: [...nodes(tables.above), ...text.children, ...nodes(tables.below)],
  };
}
