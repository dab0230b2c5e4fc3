import { ValidationError } from "../../errors/index.js";
import {
  Actions,
  Card,
  CardLink,
  Divider,
  Field,
  Fields,
  Image,
  Section,
  Text,
} from "../cards/card-builders.js";
import { Button, LinkButton } from "../cards/card-buttons.js";
import { Chart, Table } from "../cards/card-table.js";
import type { AnyCardElement } from "../cards/card-types.js";
import { describeReceived } from "../cards/element-checks.js";
import {
  DateInput,
  ExternalSelect,
  Modal,
  NumberInput,
  TextInput,
} from "../modals/modal-builders.js";
import type { ModalChild, ModalElement, SelectOptionElement } from "../modals/modal-types.js";
import { RadioSelect, Select, SelectOption } from "../modals/select.js";

/** Any element a component builds. */
export type BuiltElement = AnyCardElement | ModalElement | ModalChild | SelectOptionElement;

type Props = Record<string, unknown>;
type Build = (props: Props, children: unknown[]) => BuiltElement;

/** The text of text-like children (strings and numbers, already flattened). */
function textOf(component: string, children: readonly unknown[]): string {
  return children
    .map((child) => {
      if (typeof child === "string") return child;
      throw new ValidationError(
        `${component} children must be text (strings or numbers), got ${describeReceived(child)}`,
      );
    })
    .join("");
}

/** A label from text children, else from the `label` prop. */
function labelOf(component: string, props: Props, children: readonly unknown[]): unknown {
  return children.length > 0 ? textOf(component, children) : props.label;
}

/**
 * How each component turns props and resolved children into plain data: always through the
 * builder, so JSX is validated exactly like a function call. Keyed by function identity, since
 * names are lost to minifiers.
 */
const BUILDERS = new Map<unknown, Build>([
  [Card, (props, children) => Card({ ...props, children } as never)],
  [Text, (props, children) => Text(textOf("Text", children), { style: props.style } as never)],
  [Image, (props) => Image(props as never)],
  [Divider, () => Divider()],
  [Section, (_props, children) => Section(children as never)],
  [Actions, (_props, children) => Actions(children as never)],
  [Fields, (_props, children) => Fields(children as never)],
  [Field, (props) => Field(props as never)],
  [
    CardLink,
    (props, children) =>
      CardLink({ ...props, label: labelOf("CardLink", props, children) } as never),
  ],
  [
    Button,
    (props, children) => Button({ ...props, label: labelOf("Button", props, children) } as never),
  ],
  [
    LinkButton,
    (props, children) =>
      LinkButton({ ...props, label: labelOf("LinkButton", props, children) } as never),
  ],
  [Table, (props) => Table(props as never)],
  [Chart, (props) => Chart(props as never)],
  [Modal, (props, children) => Modal({ ...props, children } as never)],
  [TextInput, (props) => TextInput(props as never)],
  [DateInput, (props) => DateInput(props as never)],
  [NumberInput, (props) => NumberInput(props as never)],
  [ExternalSelect, (props) => ExternalSelect(props as never)],
  [Select, (props, children) => Select({ ...props, options: children } as never)],
  [RadioSelect, (props, children) => RadioSelect({ ...props, options: children } as never)],
  [SelectOption, (props) => SelectOption(props as never)],
]);

/** True when `type` is one of Baton's card or modal components. */
export function isComponent(type: unknown): boolean {
  return BUILDERS.has(type);
}

/**
 * Builds the element of component `type` from its props (without `children`) and its resolved
 * children (elements, and strings for text). `undefined` when `type` is not a component.
 */
export function buildElement(
  type: unknown,
  props: Props,
  children: unknown[],
): BuiltElement | undefined {
  return BUILDERS.get(type)?.(props, children);
}
