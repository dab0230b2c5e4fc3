import { type JSONSchema7, jsonSchema, type Schema } from "ai";
import { ValidationError } from "../errors/index.js";

/**
 * One field of a tool's input: its JSON Schema (what the model is shown) and a reader that
 * checks a value and applies the default. Both come from one definition, so the schema the model
 * sees and the check `execute` runs cannot drift apart.
 */
export interface InputField<T, TRequired extends boolean = boolean> {
  readonly json: JSONSchema7;
  /** Whether a caller must pass it; an optional field has a default or stays `undefined`. */
  readonly required: TRequired;
  /** Returns the checked value, or throws the problem as a phrase ("must be a string"). */
  read(value: unknown): T;
}

/** The text bodies a tool can post (upstream's `PostableInput`). */
export type PostableInput = string | { markdown: string } | { raw: string };

class FieldProblem extends Error {}

/** A required, non-empty string. */
export function stringField(description: string): InputField<string, true> {
  return {
    json: { type: "string", minLength: 1, description },
    required: true,
    read(value) {
      if (typeof value !== "string" || value === "") {
        throw new FieldProblem("must be a non-empty string");
      }
      return value;
    },
  };
}

/** An optional string; absent stays `undefined`. */
export function optionalStringField(description: string): InputField<string | undefined, false> {
  return {
    json: { type: "string", description },
    required: false,
    read(value) {
      if (value === undefined) return undefined;
      if (typeof value !== "string") throw new FieldProblem("must be a string");
      return value;
    },
  };
}

/** An optional integer in `[min, max]`, `fallback` when absent. */
export function integerField(
  description: string,
  bounds: { min: number; max: number; fallback: number },
): InputField<number, false> {
  const { min, max, fallback } = bounds;
  return {
    json: { type: "integer", minimum: min, maximum: max, default: fallback, description },
    required: false,
    read(value) {
      if (value === undefined) return fallback;
      if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
        throw new FieldProblem(`must be an integer from ${min} to ${max}`);
      }
      return value;
    },
  };
}

/** An optional choice among `values`, `fallback` when absent. */
export function enumField<const T extends string>(
  description: string,
  values: readonly T[],
  fallback: T,
): InputField<T, false> {
  return {
    json: { type: "string", enum: [...values], default: fallback, description },
    required: false,
    read(value) {
      if (value === undefined) return fallback;
      if (typeof value !== "string" || !values.includes(value as T)) {
        throw new FieldProblem(`must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`);
      }
      return value as T;
    },
  };
}

/** A message body: plain text, `{ markdown }` or `{ raw }`, each a non-empty string. */
export function postableField(): InputField<PostableInput, true> {
  const body = (key: "markdown" | "raw", description: string): JSONSchema7 => ({
    type: "object",
    properties: { [key]: { type: "string", minLength: 1 } },
    required: [key],
    additionalProperties: false,
    description,
  });
  return {
    json: {
      description: "Message body",
      anyOf: [
        { type: "string", minLength: 1, description: "Plain text body" },
        body("markdown", "Markdown body, converted to the platform's native format"),
        body("raw", "Raw body, passed through to the platform untouched"),
      ],
    },
    required: true,
    read(value) {
      if (typeof value === "string" && value !== "") return value;
      if (typeof value === "object" && value !== null) {
        // Only the one known key is passed on, so a model cannot smuggle extra fields to the
        // adapter (upstream's rule).
        for (const key of ["markdown", "raw"] as const) {
          const text = (value as Record<string, unknown>)[key];
          if (typeof text === "string" && text !== "") {
            return key === "markdown" ? { markdown: text } : { raw: text };
          }
        }
      }
      throw new FieldProblem("must be a non-empty string, { markdown: string } or { raw: string }");
    },
  };
}

type Shape = Record<string, InputField<unknown>>;

type ValueOf<F> = F extends InputField<infer T> ? T : never;
type RequiredKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends InputField<unknown, true> ? K : never;
}[keyof S];

/** What a caller passes: the required fields, and the optional ones it may leave out. */
export type InputOf<S extends Shape> = { [K in RequiredKeys<S>]: ValueOf<S[K]> } & {
  [K in Exclude<keyof S, RequiredKeys<S>>]?: ValueOf<S[K]>;
};

/** The checked input: every field present, defaults applied. */
export type ParsedOf<S extends Shape> = InputOf<S> & { [K in keyof S]: ValueOf<S[K]> };

/** A tool's input: the AI SDK schema (validated through the same readers) and a parser. */
export interface ToolInput<TInput, TParsed extends TInput = TInput> {
  readonly schema: Schema<TInput>;
  /** Checks `value` and applies defaults; a `ValidationError` names the first bad field. */
  parse(value: unknown): TParsed;
}

/** The input type a tool built on `T` accepts. */
export type InputOfTool<T> = T extends ToolInput<infer I, infer _P> ? I : never;

/** Builds the input of tool `toolName` from its fields. */
export function toolInput<S extends Shape>(
  toolName: string,
  shape: S,
): ToolInput<InputOf<S>, ParsedOf<S>> {
  const step = `validate ${toolName} input`;
  const parse = (value: unknown): ParsedOf<S> => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ValidationError(`${toolName} input must be an object`, { step });
    }
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(shape)) {
      try {
        out[key] = field.read(record[key]);
      } catch (error) {
        if (!(error instanceof FieldProblem)) throw error;
        throw new ValidationError(`${toolName}: ${key} ${error.message}`, { step });
      }
    }
    return out as ParsedOf<S>;
  };
  const json: JSONSchema7 = {
    type: "object",
    properties: Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, field.json])),
    required: Object.entries(shape)
      .filter(([, field]) => field.required)
      .map(([key]) => key),
    additionalProperties: false,
  };
  const schema = jsonSchema<InputOf<S>>(json, {
    validate(value) {
      try {
        return { success: true, value: parse(value) };
      } catch (error) {
        return { success: false, error: error as Error };
      }
    },
  });
  return { schema, parse };
}
