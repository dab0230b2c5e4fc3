import { cardChildToFallbackText, type TableElement } from "@baton/core";
import { fencedSlackSection } from "./fenced-text.js";
import { SLACK_LIMITS } from "./limits.js";
import type { SlackBlock, SlackRenderState } from "./render-options.js";

// Slack refuses a cell with empty text.
const rawText = (text: string) => ({ type: "raw_text", text: text || " " });

function fitsNativeTable(element: TableElement): boolean {
  const rows = [element.headers, ...element.rows];
  const chars = rows.flat().reduce((total, cell) => total + cell.length, 0);
  return (
    rows.length <= SLACK_LIMITS.tableRows &&
    element.headers.length <= SLACK_LIMITS.tableColumns &&
    chars <= SLACK_LIMITS.tableChars
  );
}

/**
 * A card table as Slack's `data_table` block (its first row the headers, `caption` defaulting to
 * "Table", `pageSize` clamped to 1–100 as `page_size`), or as a plain `table` block when it has
 * headers only (a data table needs a data row; `align` becomes its `column_settings`). Slack takes
 * one table per message and at most 100 rows, 20 columns and 10 000 characters of cells: a second
 * table, or one past those limits, becomes its ASCII text in a code block.
 */
export function tableToSlackBlock(element: TableElement, state: SlackRenderState): SlackBlock {
  if (state.usedNativeTable || !fitsNativeTable(element)) {
    return fencedSlackSection(cardChildToFallbackText(element) ?? "");
  }
  state.usedNativeTable = true;
  const rows = [element.headers, ...element.rows].map((row) =>
    row.map((cell) => rawText(state.convertEmoji(cell))),
  );
  if (element.rows.length === 0) {
    return {
      type: "table",
      rows,
      ...(element.align
        ? { column_settings: element.align.map((align) => (align ? { align } : null)) }
        : {}),
    };
  }
  return {
    type: "data_table",
    caption: state.convertEmoji(element.caption || "Table"),
    rows,
    ...(element.pageSize === undefined
      ? {}
      : {
          page_size: Math.min(
            SLACK_LIMITS.tablePageSize,
            Math.max(1, Math.floor(element.pageSize)),
          ),
        }),
  };
}
