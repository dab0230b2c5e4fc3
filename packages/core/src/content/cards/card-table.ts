import { ValidationError } from "../../errors/index.js";
import type {
  ChartDefinition,
  ChartElement,
  TableAlignment,
  TableElement,
  TableGridStyle,
  TableOptions,
  TableVerticalAlignment,
} from "./card-types.js";
import {
  compact,
  describeReceived,
  optionalBoolean,
  optionalChoice,
  optionalNumber,
  optionalString,
  requireList,
  requireOptions,
  requireText,
} from "./element-checks.js";

const ALIGNMENTS: readonly TableAlignment[] = ["left", "center", "right"];
const VERTICAL: readonly TableVerticalAlignment[] = ["top", "center", "bottom"];
const GRID_STYLES: readonly TableGridStyle[] = [
  "default",
  "emphasis",
  "accent",
  "good",
  "attention",
  "warning",
];

function stringCells(field: string, value: unknown): string[] {
  const cells = requireList("Table", field, value);
  cells.forEach((cell, index) => {
    if (typeof cell !== "string") {
      throw new ValidationError(
        `Table '${field}[${index}]' must be a string, got ${describeReceived(cell)}`,
      );
    }
  });
  return cells as string[];
}

/**
 * A table of strings: at least one header, and every row exactly as wide as the headers (a
 * ragged row would shift cells under the wrong header on every platform).
 */
export function Table(options: TableOptions): TableElement {
  const given = requireOptions("Table", options);
  const headers = stringCells("headers", given.headers);
  if (headers.length === 0) throw new ValidationError("Table 'headers' must not be empty");
  const rows = requireList("Table", "rows", given.rows).map((row, index) => {
    const cells = stringCells(`rows[${index}]`, row);
    if (cells.length !== headers.length) {
      throw new ValidationError(
        `Table 'rows[${index}]' has ${cells.length} cells but 'headers' has ${headers.length}`,
      );
    }
    return cells;
  });
  const align =
    given.align === undefined
      ? undefined
      : requireList("Table", "align", given.align).map((value, index) => {
          const choice = optionalChoice("Table", `align[${index}]`, value, ALIGNMENTS);
          if (choice === undefined) throw new ValidationError(`Table 'align[${index}]' is missing`);
          return choice;
        });
  if (align !== undefined && align.length > headers.length) {
    throw new ValidationError(
      `Table 'align' has ${align.length} entries for ${headers.length} columns`,
    );
  }
  const widths =
    given.widths === undefined
      ? undefined
      : requireList("Table", "widths", given.widths).map(
          (value, index) =>
            optionalNumber("Table", `widths[${index}]`, value, {
              integer: true,
              minimum: 1,
            }) as number,
        );
  if (widths !== undefined && widths.length !== headers.length) {
    throw new ValidationError(
      `Table 'widths' has ${widths.length} entries for ${headers.length} columns`,
    );
  }
  return compact<TableElement>({
    type: "table",
    headers,
    rows,
    align,
    caption: optionalString("Table", "caption", given.caption),
    pageSize: optionalNumber("Table", "pageSize", given.pageSize, { integer: true, minimum: 1 }),
    widths,
    verticalAlign: optionalChoice("Table", "verticalAlign", given.verticalAlign, VERTICAL),
    gridLines: optionalBoolean("Table", "gridLines", given.gridLines),
    gridStyle: optionalChoice("Table", "gridStyle", given.gridStyle, GRID_STYLES),
  });
}

function finiteValue(field: string, value: unknown): void {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new ValidationError(
      `Chart '${field}' must be a finite number, got ${describeReceived(value)}`,
    );
  }
}

function checkDefinition(chart: unknown): ChartDefinition {
  const given = requireOptions("Chart 'chart'", chart);
  if (given.type === "pie") {
    requireList("Chart", "chart.segments", given.segments).forEach((segment, index) => {
      const entry = requireOptions(`Chart 'chart.segments[${index}]'`, segment);
      requireText("Chart", `chart.segments[${index}].label`, entry.label);
      finiteValue(`chart.segments[${index}].value`, entry.value);
    });
    return given as unknown as ChartDefinition;
  }
  if (given.type === "bar" || given.type === "area" || given.type === "line") {
    requireList("Chart", "chart.categories", given.categories).forEach((category, index) =>
      requireText("Chart", `chart.categories[${index}]`, category),
    );
    requireList("Chart", "chart.series", given.series).forEach((series, index) => {
      const entry = requireOptions(`Chart 'chart.series[${index}]'`, series);
      requireText("Chart", `chart.series[${index}].name`, entry.name);
      requireList("Chart", `chart.series[${index}].data`, entry.data).forEach((point, at) => {
        const datum = requireOptions(`Chart 'chart.series[${index}].data[${at}]'`, point);
        requireText("Chart", `chart.series[${index}].data[${at}].label`, datum.label);
        finiteValue(`chart.series[${index}].data[${at}].value`, datum.value);
      });
    });
    optionalString("Chart", "chart.xLabel", given.xLabel);
    optionalString("Chart", "chart.yLabel", given.yLabel);
    return given as unknown as ChartDefinition;
  }
  throw new ValidationError(
    `Chart 'chart.type' must be one of "pie", "bar", "area", "line", got ${describeReceived(given.type)}`,
  );
}

/**
 * A chart. Only the shape is checked here (finite numbers, named series); platform limits such
 * as Slack's 12 segments are left to the adapter, which falls back to text when they are exceeded.
 */
export function Chart(options: { title: string; chart: ChartDefinition }): ChartElement {
  const given = requireOptions("Chart", options);
  return {
    type: "chart",
    title: requireText("Chart", "title", given.title),
    // A copy: the element must not change when the caller later edits its data.
    chart: structuredClone(checkDefinition(given.chart)),
  };
}
