import ts from "typescript";

/** Returned by {@link literalValue} when an expression is not a literal. */
export const NOT_LITERAL: unique symbol = Symbol("not a literal");

/** A literal JavaScript value, or {@link NOT_LITERAL}. */
export type LiteralResult = unknown;

/**
 * Resolves identifiers to the initializers of `const` declarations in the same file, so
 * `it.each(cases)` expands when `cases` is a literal declared in that file.
 */
export type ConstLookup = (name: string) => ts.Expression | undefined;

/** Builds a {@link ConstLookup} over every `const` declaration in `sourceFile` with a unique name. */
export function constLookup(sourceFile: ts.SourceFile): ConstLookup {
  const found = new Map<string, ts.Expression | null>();
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclarationList(node) && (node.flags & ts.NodeFlags.Const) !== 0) {
      for (const declaration of node.declarations) {
        if (!ts.isIdentifier(declaration.name) || declaration.initializer === undefined) continue;
        const name = declaration.name.text;
        found.set(name, found.has(name) ? null : declaration.initializer);
      }
    } else if (ts.isVariableDeclarationList(node)) {
      // A `let` or `var` of the same name makes the const ambiguous.
      for (const declaration of node.declarations) {
        if (ts.isIdentifier(declaration.name)) found.set(declaration.name.text, null);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return (name) => found.get(name) ?? undefined;
}

/** Strips parentheses, `as const`, `satisfies T`, `<T>x` and `x!`. */
export function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  for (;;) {
    if (
      ts.isParenthesizedExpression(current) ||
      ts.isAsExpression(current) ||
      ts.isSatisfiesExpression(current) ||
      ts.isTypeAssertionExpression(current) ||
      ts.isNonNullExpression(current)
    ) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

/**
 * The string an expression always evaluates to: a string literal, a template without
 * substitutions, or a `+` concatenation of those. `undefined` otherwise.
 */
export function literalString(expression: ts.Expression): string | undefined {
  const node = unwrap(expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = literalString(node.left);
    const right = literalString(node.right);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  return undefined;
}

/**
 * Evaluates an expression that is a literal: strings, numbers (also negated), booleans, `null`,
 * `undefined`, and arrays and object literals of those, also through `const` identifiers of the
 * same file (via `lookup`). Anything else yields {@link NOT_LITERAL}.
 */
export function literalValue(
  expression: ts.Expression,
  lookup: ConstLookup = () => undefined,
  seen: ReadonlySet<string> = new Set(),
): LiteralResult {
  const node = unwrap(expression);
  const text = literalString(node);
  if (text !== undefined) return text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isBigIntLiteral(node)) return BigInt(node.text.slice(0, -1));
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
    const operand = literalValue(node.operand, lookup, seen);
    return typeof operand === "number" ? -operand : NOT_LITERAL;
  }
  switch (node.kind) {
    case ts.SyntaxKind.TrueKeyword:
      return true;
    case ts.SyntaxKind.FalseKeyword:
      return false;
    case ts.SyntaxKind.NullKeyword:
      return null;
  }
  if (ts.isIdentifier(node)) return identifierValue(node.text, lookup, seen);
  if (ts.isArrayLiteralExpression(node)) return arrayValue(node, lookup, seen);
  if (ts.isObjectLiteralExpression(node)) return objectValue(node, lookup, seen);
  return NOT_LITERAL;
}

function identifierValue(name: string, lookup: ConstLookup, seen: ReadonlySet<string>) {
  if (name === "undefined") return undefined;
  if (name === "NaN") return Number.NaN;
  if (name === "Infinity") return Number.POSITIVE_INFINITY;
  const initializer = seen.has(name) ? undefined : lookup(name);
  if (initializer === undefined) return NOT_LITERAL;
  return literalValue(initializer, lookup, new Set([...seen, name]));
}

function arrayValue(
  node: ts.ArrayLiteralExpression,
  lookup: ConstLookup,
  seen: ReadonlySet<string>,
): LiteralResult {
  const values: unknown[] = [];
  for (const element of node.elements) {
    if (ts.isSpreadElement(element)) {
      const spread = literalValue(element.expression, lookup, seen);
      if (!Array.isArray(spread)) return NOT_LITERAL;
      values.push(...spread);
      continue;
    }
    const value = literalValue(element, lookup, seen);
    if (value === NOT_LITERAL) return NOT_LITERAL;
    values.push(value);
  }
  return values;
}

function objectValue(
  node: ts.ObjectLiteralExpression,
  lookup: ConstLookup,
  seen: ReadonlySet<string>,
): LiteralResult {
  const value: Record<string, unknown> = {};
  for (const property of node.properties) {
    if (ts.isShorthandPropertyAssignment(property)) {
      const item = identifierValue(property.name.text, lookup, seen);
      if (item === NOT_LITERAL) return NOT_LITERAL;
      value[property.name.text] = item;
      continue;
    }
    if (!ts.isPropertyAssignment(property)) return NOT_LITERAL;
    const key = propertyName(property.name);
    if (key === undefined) return NOT_LITERAL;
    const item = literalValue(property.initializer, lookup, seen);
    if (item === NOT_LITERAL) return NOT_LITERAL;
    value[key] = item;
  }
  return value;
}

/** The name of a property as a string when it is written literally, else `undefined`. */
export function propertyName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isNumericLiteral(name)) return String(Number(name.text));
  if (ts.isComputedPropertyName(name)) return literalString(name.expression);
  return undefined;
}
