import type { CardOptions } from "../cards/card-builders.js";
import type { ButtonOptions, LinkButtonOptions } from "../cards/card-buttons.js";
import type {
  ActionsChild,
  ActionsElement,
  ButtonElement,
  ButtonStyle,
  CardChild,
  CardElement,
  CardWidth,
  ChartDefinition,
  ChartElement,
  DividerElement,
  FieldElement,
  FieldsElement,
  ImageElement,
  LinkButtonElement,
  LinkElement,
  SectionElement,
  TableElement,
  TableOptions,
  TextElement,
  TextStyle,
} from "../cards/card-types.js";
import type {
  DateInputOptions,
  ExternalSelectOptions,
  ModalOptions,
  NumberInputOptions,
  TextInputOptions,
} from "../modals/modal-builders.js";
import type {
  DateInputElement,
  ExternalSelectElement,
  ModalElement,
  NumberInputElement,
  RadioSelectElement,
  SelectElement,
  SelectOptionElement,
  TextInputElement,
} from "../modals/modal-types.js";
import type { RadioSelectOptions, SelectOptionOptions, SelectOptions } from "../modals/select.js";

/** Marks the lazy elements the JSX factories build (upstream's symbol, so trees interoperate). */
export const JSX_ELEMENT = Symbol.for("chat.jsx.element");

/** Text-like JSX children: joined into a label or text content. */
export type TextChildren = string | number | (string | number | undefined)[];

/** `<Card>` props. */
export interface CardProps {
  children?: unknown;
  title?: string;
  subtitle?: string;
  imageUrl?: string;
  width?: CardWidth;
}

/** `<Text>` props: the children are the content. */
export interface TextProps {
  children?: TextChildren;
  style?: TextStyle;
}

/** `<Button>` props: the children (or `label`) are the label. */
export interface ButtonProps {
  id: string;
  children?: TextChildren;
  label?: string;
  style?: ButtonStyle;
  value?: string;
  disabled?: boolean;
  actionType?: "action" | "modal";
  callbackUrl?: string;
  tooltip?: string;
  visibleTo?: string[];
}

/** `<LinkButton>` props. */
export interface LinkButtonProps {
  url: string;
  children?: TextChildren;
  id?: string;
  label?: string;
  style?: ButtonStyle;
  tooltip?: string;
  visibleTo?: string[];
}

/** `<CardLink>` props. */
export interface CardLinkProps {
  url: string;
  children?: TextChildren;
  label?: string;
}

/** `<Image>` props. */
export interface ImageProps {
  url: string;
  alt?: string;
}

/** `<Field>` props. */
export interface FieldProps {
  label: string;
  value: string;
}

/** `<Section>`, `<Actions>` and `<Fields>` props. */
export interface ContainerProps {
  children?: unknown;
}

/** `<Divider>` takes no props. */
export type DividerProps = Record<string, never>;

/** `<Modal>` props. */
export interface ModalProps {
  callbackId: string;
  title: string;
  children?: unknown;
  callbackUrl?: string;
  submitLabel?: string;
  closeLabel?: string;
  notifyOnClose?: boolean;
  privateMetadata?: string;
}

/** `<TextInput>` props. */
export type TextInputProps = TextInputOptions;

/** `<DateInput>` props. */
export type DateInputProps = DateInputOptions;

/** `<NumberInput>` props. */
export type NumberInputProps = NumberInputOptions;

/** `<Select>` and `<RadioSelect>` props: the `<SelectOption>` children are the options. */
export interface SelectProps {
  id: string;
  label: string;
  children?: unknown;
  placeholder?: string;
  initialOption?: string;
  optional?: boolean;
  dispatchAction?: boolean;
}

/** `<ExternalSelect>` props. */
export type ExternalSelectProps = ExternalSelectOptions;

/** `<SelectOption>` props. */
export type SelectOptionProps = SelectOptionOptions;

/** `<Table>` props: a table has no children, so its props are its options. */
export type TableProps = TableOptions;

/** `<Chart>` props. */
export interface ChartProps {
  title: string;
  chart: ChartDefinition;
}

/** The props any component accepts. */
export type CardJSXProps =
  | CardProps
  | TextProps
  | ButtonProps
  | LinkButtonProps
  | CardLinkProps
  | ImageProps
  | FieldProps
  | ContainerProps
  | DividerProps
  | ModalProps
  | TextInputProps
  | DateInputProps
  | NumberInputProps
  | SelectProps
  | ExternalSelectProps
  | SelectOptionProps
  | TableProps
  | ChartProps;

/** Each builder is callable with its options, and typed for JSX with its props. */
export interface CardComponent {
  (options?: CardOptions): CardElement;
  (props: CardProps): ChatElement;
}
/** `Text`: callable with its options (a plain element) and usable as `<Text>` in JSX. */
export interface TextComponent {
  (content: string, options?: { style?: TextStyle }): TextElement;
  (props: TextProps): ChatElement;
}
/** `Button`: callable with its options (a plain element) and usable as `<Button>` in JSX. */
export interface ButtonComponent {
  (options: ButtonOptions): ButtonElement;
  (props: ButtonProps): ChatElement;
}
/** `LinkButton`: callable with its options (a plain element) and usable as `<LinkButton>` in JSX. */
export interface LinkButtonComponent {
  (options: LinkButtonOptions): LinkButtonElement;
  (props: LinkButtonProps): ChatElement;
}
/** `CardLink`: callable with its options (a plain element) and usable as `<CardLink>` in JSX. */
export interface CardLinkComponent {
  (options: { url: string; label: string }): LinkElement;
  (props: CardLinkProps): ChatElement;
}
/** `Image`: callable with its options (a plain element) and usable as `<Image>` in JSX. */
export interface ImageComponent {
  (options: { url: string; alt?: string }): ImageElement;
  (props: ImageProps): ChatElement;
}
/** `Field`: callable with its options (a plain element) and usable as `<Field>` in JSX. */
export interface FieldComponent {
  (options: { label: string; value: string }): FieldElement;
  (props: FieldProps): ChatElement;
}
/** `Divider`: callable with its options (a plain element) and usable as `<Divider>` in JSX. */
export interface DividerComponent {
  (): DividerElement;
  (props: DividerProps): ChatElement;
}
/** `Section`: callable with its options (a plain element) and usable as `<Section>` in JSX. */
export interface SectionComponent {
  (children: CardChild[]): SectionElement;
  (props: ContainerProps): ChatElement;
}
/** `Actions`: callable with its options (a plain element) and usable as `<Actions>` in JSX. */
export interface ActionsComponent {
  (children: ActionsChild[]): ActionsElement;
  (props: ContainerProps): ChatElement;
}
/** `Fields`: callable with its options (a plain element) and usable as `<Fields>` in JSX. */
export interface FieldsComponent {
  (children: FieldElement[]): FieldsElement;
  (props: ContainerProps): ChatElement;
}
/** `Table`: callable with its options (a plain element) and usable as `<Table>` in JSX. */
export interface TableComponent {
  (options: TableOptions): TableElement;
  (props: TableProps): ChatElement;
}
/** `Chart`: callable with its options (a plain element) and usable as `<Chart>` in JSX. */
export interface ChartComponent {
  (options: { title: string; chart: ChartDefinition }): ChartElement;
  (props: ChartProps): ChatElement;
}
/** `Modal`: callable with its options (a plain element) and usable as `<Modal>` in JSX. */
export interface ModalComponent {
  (options: ModalOptions): ModalElement;
  (props: ModalProps): ChatElement;
}
/** `TextInput`: callable with its options (a plain element) and usable as `<TextInput>` in JSX. */
export interface TextInputComponent {
  (options: TextInputOptions): TextInputElement;
  (props: TextInputProps): ChatElement;
}
/** `DateInput`: callable with its options (a plain element) and usable as `<DateInput>` in JSX. */
export interface DateInputComponent {
  (options: DateInputOptions): DateInputElement;
  (props: DateInputProps): ChatElement;
}
/** `NumberInput`: callable with its options (a plain element) and usable as `<NumberInput>` in JSX. */
export interface NumberInputComponent {
  (options: NumberInputOptions): NumberInputElement;
  (props: NumberInputProps): ChatElement;
}
/** `Select`: callable with its options (a plain element) and usable as `<Select>` in JSX. */
export interface SelectComponent {
  (options: SelectOptions): SelectElement;
  (props: SelectProps): ChatElement;
}
/** `RadioSelect`: callable with its options (a plain element) and usable as `<RadioSelect>` in JSX. */
export interface RadioSelectComponent {
  (options: RadioSelectOptions): RadioSelectElement;
  (props: SelectProps): ChatElement;
}
/** `ExternalSelect`: callable with its options (a plain element) and usable as `<ExternalSelect>` in JSX. */
export interface ExternalSelectComponent {
  (options: ExternalSelectOptions): ExternalSelectElement;
  (props: ExternalSelectProps): ChatElement;
}
/** `SelectOption`: callable with its options (a plain element) and usable as `<SelectOption>` in JSX. */
export interface SelectOptionComponent {
  (options: SelectOptionOptions): SelectOptionElement;
  (props: SelectOptionProps): ChatElement;
}

/** Any component a JSX element may name. */
export type CardComponentFunction =
  | CardComponent
  | TextComponent
  | ButtonComponent
  | LinkButtonComponent
  | CardLinkComponent
  | ImageComponent
  | FieldComponent
  | DividerComponent
  | SectionComponent
  | ActionsComponent
  | FieldsComponent
  | TableComponent
  | ChartComponent
  | ModalComponent
  | TextInputComponent
  | DateInputComponent
  | NumberInputComponent
  | SelectComponent
  | RadioSelectComponent
  | ExternalSelectComponent
  | SelectOptionComponent;

/**
 * What JSX syntax builds: a lazy element naming its component, its props (without `children`)
 * and its children. `toCardElement` / `toModalElement` resolve it into plain data, which is when
 * the builders validate it.
 */
export interface CardJSXElement<P extends CardJSXProps = CardJSXProps> {
  $$typeof: typeof JSX_ELEMENT;
  type: CardComponentFunction;
  props: P;
  children: unknown[];
}

/** Anything the components produce: a lazy JSX element or a resolved element. */
export type ChatElement =
  | CardJSXElement
  | CardElement
  | TextElement
  | ButtonElement
  | LinkButtonElement
  | LinkElement
  | ImageElement
  | DividerElement
  | ActionsElement
  | SectionElement
  | FieldsElement
  | FieldElement
  | TableElement
  | ChartElement
  | ModalElement
  | TextInputElement
  | DateInputElement
  | NumberInputElement
  | SelectElement
  | ExternalSelectElement
  | SelectOptionElement
  | RadioSelectElement;
