/**
 * Slack's Block Kit limits the renderer and the builders keep to
 * (docs.slack.dev/reference/block-kit). Lengths are in characters, the rest are counts.
 */
export const SLACK_LIMITS = {
  blocks: 50,
  sectionText: 3_000,
  textObject: 3_000,
  headerText: 150,
  buttonText: 75,
  buttonValue: 2_000,
  url: 3_000,
  imageAlt: 2_000,
  actionId: 255,
  actionElements: 25,
  fields: 10,
  fieldText: 2_000,
  options: 100,
  radioOptions: 10,
  optionText: 75,
  optionValue: 150,
  placeholder: 150,
  messageText: 40_000,
  /** Rows of a table or data table block, the header row included. */
  tableRows: 100,
  tableColumns: 20,
  /** All cells of one table together. */
  tableChars: 10_000,
  tablePageSize: 100,
  /** Slack refuses a message with a third data_visualization block (not documented). */
  chartsPerMessage: 2,
  chartTitle: 50,
  chartLabel: 20,
  chartSegments: 12,
  chartSeries: 12,
  chartDataPoints: 20,
} as const;

/**
 * Text a reader sees, cut to `max` characters and ending with "…" when cut, so the reader can
 * tell something is missing; never a refused post.
 */
export function truncateSlackText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A URL, id or value cut to `max` characters with no marker: a marker would only change the value
 * further, and the initial option of a select must match its cut option value exactly.
 */
export function cutSlackValue(value: string, max: number): string {
  return value.length <= max ? value : value.slice(0, max);
}
