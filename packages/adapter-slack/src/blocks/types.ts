import type { ChartDefinition, TableElement } from "@baton/core";

/** A pie chart's data (core's `PieChartDefinition`). */
export type SlackPieChartDefinition = Extract<ChartDefinition, { type: "pie" }>;
/** A bar, area or line chart's data (core's `SeriesChartDefinition`). */
export type SlackSeriesChartDefinition = Exclude<ChartDefinition, { type: "pie" }>;
/** One slice of a pie chart. */
export type SlackChartSegment = SlackPieChartDefinition["segments"][number];
/** A named series of a bar, area or line chart. */
export type SlackChartSeries = SlackSeriesChartDefinition["series"][number];
/** One point of a chart series. */
export type SlackChartDataPoint = SlackChartSeries["data"][number];
/** Horizontal alignment of a table column. */
export type SlackTableAlignment = NonNullable<TableElement["align"]>[number];
