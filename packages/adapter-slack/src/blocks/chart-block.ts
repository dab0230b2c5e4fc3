import { type ChartElement, cardChildToFallbackText } from "@baton/core";
import { fencedSlackSection } from "./fenced-text.js";
import { SLACK_LIMITS } from "./limits.js";
import type { SlackBlock, SlackRenderState } from "./render-options.js";
import type { SlackPieChartDefinition, SlackSeriesChartDefinition } from "./types.js";

const isLabel = (label: string) => label.length >= 1 && label.length <= SLACK_LIMITS.chartLabel;
const isAxisLabel = (label: string | undefined) =>
  label === undefined || label.length <= SLACK_LIMITS.chartTitle;
const allDistinct = (values: readonly string[]) => new Set(values).size === values.length;

function pieChart(chart: SlackPieChartDefinition): Record<string, unknown> | null {
  const { segments } = chart;
  const valid =
    segments.length >= 1 &&
    segments.length <= SLACK_LIMITS.chartSegments &&
    segments.every((segment) => isLabel(segment.label) && segment.value > 0);
  if (!valid) return null;
  return {
    type: "pie",
    segments: segments.map((segment) => ({ label: segment.label, value: segment.value })),
  };
}

function seriesChart(chart: SlackSeriesChartDefinition): Record<string, unknown> | null {
  const { categories, series } = chart;
  const valid =
    categories.length >= 1 &&
    categories.length <= SLACK_LIMITS.chartDataPoints &&
    categories.every(isLabel) &&
    allDistinct(categories) &&
    series.length >= 1 &&
    series.length <= SLACK_LIMITS.chartSeries &&
    series.every((entry) => isLabel(entry.name)) &&
    allDistinct(series.map((entry) => entry.name)) &&
    isAxisLabel(chart.xLabel) &&
    isAxisLabel(chart.yLabel);
  if (!valid) return null;
  // Slack wants one point per category, in the categories' order.
  const normalized: Array<{ name: string; data: Array<{ label: string; value: number }> }> = [];
  for (const entry of series) {
    if (entry.data.length !== categories.length) return null;
    const byLabel = new Map(entry.data.map((point) => [point.label, point.value]));
    const data: Array<{ label: string; value: number }> = [];
    for (const category of categories) {
      const value = byLabel.get(category);
      if (value === undefined) return null;
      data.push({ label: category, value });
    }
    normalized.push({ name: entry.name, data });
  }
  return {
    type: chart.type,
    series: normalized,
    axis_config: {
      categories,
      ...(chart.xLabel === undefined ? {} : { x_label: chart.xLabel }),
      ...(chart.yLabel === undefined ? {} : { y_label: chart.yLabel }),
    },
  };
}

/**
 * A card chart as Slack's `data_visualization` block (pie, or bar/area/line with its axis
 * configuration and each series' points in category order). Slack refuses an invalid chart
 * outright (a title over 50 characters, labels over 20, more than 12 segments or series, more
 * than 20 categories, a segment that is not positive, a series missing a category) and a third
 * chart in one message, so such a chart becomes its data as ASCII text in a code block.
 */
export function chartToSlackBlock(element: ChartElement, state: SlackRenderState): SlackBlock {
  const title = state.convertEmoji(element.title);
  const titleFits = title.length >= 1 && title.length <= SLACK_LIMITS.chartTitle;
  const chart =
    titleFits && state.chartCount < SLACK_LIMITS.chartsPerMessage
      ? element.chart.type === "pie"
        ? pieChart(element.chart)
        : seriesChart(element.chart)
      : null;
  if (chart === null) return fencedSlackSection(cardChildToFallbackText(element) ?? "");
  state.chartCount += 1;
  return { type: "data_visualization", title, chart };
}
