/**
 * The Block Kit rules of Slack's that the fake enforces on a message, each refused as Slack does
 * with `invalid_blocks`: at most 50 blocks, one table (`table` or `data_table`), two
 * `data_visualization` blocks (Slack's undocumented limit), and no table cell with empty text.
 */
export function blocksAreValid(blocks: readonly unknown[]): boolean {
  if (blocks.length > 50) return false;
  const typed = blocks.map((block) => (block ?? {}) as { type?: unknown; rows?: unknown });
  const tables = typed.filter((block) => block.type === "table" || block.type === "data_table");
  const charts = typed.filter((block) => block.type === "data_visualization");
  if (tables.length > 1 || charts.length > 2) return false;
  return tables.every((table) => Array.isArray(table.rows) && table.rows.every(rowIsValid));
}

function rowIsValid(row: unknown): boolean {
  return (
    Array.isArray(row) &&
    row.every((cell) => {
      const text = (cell as { text?: unknown } | null)?.text;
      return typeof text === "string" && text.length > 0;
    })
  );
}
