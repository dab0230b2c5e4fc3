// Builders are exported typed for JSX from ../jsx/components.ts; this barrel has the rest.

export type { CardOptions } from "./card-builders.js";
export type { ButtonOptions, LinkButtonOptions } from "./card-buttons.js";
export { validateCardElement } from "./card-check.js";
export {
  cardChildToFallbackText,
  cardToFallbackText,
  type FallbackTextOptions,
} from "./card-fallback-text.js";
export {
  type CardPost,
  type CardWithFallback,
  isCardPost,
  type ResolvedCardPost,
  resolveCardPost,
} from "./card-post.js";
export {
  ACTIONS_CHILD_TYPES,
  type ActionsChild,
  type ActionsElement,
  type AnyCardElement,
  type ButtonElement,
  type ButtonStyle,
  CARD_CHILD_TYPES,
  type CardChild,
  type CardElement,
  type CardWidth,
  type ChartDataPoint,
  type ChartDefinition,
  type ChartElement,
  type ChartSegment,
  type ChartSeries,
  type DividerElement,
  type FieldElement,
  type FieldsElement,
  type ImageElement,
  isCardElement,
  type LinkButtonElement,
  type LinkElement,
  type PieChartDefinition,
  type SectionElement,
  type SeriesChartDefinition,
  type TableAlignment,
  type TableElement,
  type TableGridStyle,
  type TableOptions,
  type TableVerticalAlignment,
  type TextElement,
  type TextStyle,
} from "./card-types.js";
