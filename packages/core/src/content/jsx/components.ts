import * as cards from "../cards/card-builders.js";
import * as buttons from "../cards/card-buttons.js";
import * as tables from "../cards/card-table.js";
import * as modals from "../modals/modal-builders.js";
import * as selects from "../modals/select.js";
import type {
  ActionsComponent,
  ButtonComponent,
  CardComponent,
  CardLinkComponent,
  ChartComponent,
  DateInputComponent,
  DividerComponent,
  ExternalSelectComponent,
  FieldComponent,
  FieldsComponent,
  ImageComponent,
  LinkButtonComponent,
  ModalComponent,
  NumberInputComponent,
  RadioSelectComponent,
  SectionComponent,
  SelectComponent,
  SelectOptionComponent,
  TableComponent,
  TextComponent,
  TextInputComponent,
} from "./jsx-types.js";

/**
 * The public builders: the same functions as in cards/ and modals/, typed so each is callable
 * with its options and usable as a JSX component with its props.
 */
export const Card = cards.Card as unknown as CardComponent;
export const Text = cards.Text as unknown as TextComponent;
export const CardText = cards.CardText as unknown as TextComponent;
export const Image = cards.Image as unknown as ImageComponent;
export const Divider = cards.Divider as unknown as DividerComponent;
export const Section = cards.Section as unknown as SectionComponent;
export const Actions = cards.Actions as unknown as ActionsComponent;
export const CardLink = cards.CardLink as unknown as CardLinkComponent;
export const Field = cards.Field as unknown as FieldComponent;
export const Fields = cards.Fields as unknown as FieldsComponent;
export const Button = buttons.Button as unknown as ButtonComponent;
export const LinkButton = buttons.LinkButton as unknown as LinkButtonComponent;
export const Table = tables.Table as unknown as TableComponent;
export const Chart = tables.Chart as unknown as ChartComponent;
export const Modal = modals.Modal as unknown as ModalComponent;
export const TextInput = modals.TextInput as unknown as TextInputComponent;
export const DateInput = modals.DateInput as unknown as DateInputComponent;
export const NumberInput = modals.NumberInput as unknown as NumberInputComponent;
export const ExternalSelect = modals.ExternalSelect as unknown as ExternalSelectComponent;
export const Select = selects.Select as unknown as SelectComponent;
export const RadioSelect = selects.RadioSelect as unknown as RadioSelectComponent;
export const SelectOption = selects.SelectOption as unknown as SelectOptionComponent;
