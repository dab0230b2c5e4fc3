import ts from "typescript";
import {
  type ConstLookup,
  constLookup,
  literalString,
  literalValue,
  NOT_LITERAL,
  propertyName,
  unwrap,
} from "./literal-value.js";
import type { Extraction, TestTitle, UnresolvedTitle } from "./test-title.js";
import { formatEachTitle } from "./vitest-title-format.js";

const SUITE_ROOTS = new Set(["describe", "suite"]);
const TEST_ROOTS = new Set(["it", "test"]);
/** Chain members noted as modifiers. `each` is noted only when a template stays unexpanded. */
const NOTED = new Set(["skip", "only", "todo", "skipIf", "runIf", "fails", "concurrent"]);
/** Chain members that change nothing we record. */
const IGNORED = new Set(["sequential", "shuffle"]);
/** Modifiers a describe passes on to every test inside it. */
const INHERITED = new Set(["skip", "only", "todo", "skipIf", "runIf"]);

/** One `.name` of a call chain such as `it.skip.each(cases)`, with what it was called with. */
interface Link {
  readonly name: string;
  args?: readonly ts.Expression[];
  table?: ts.TemplateLiteral;
}

/** A recognised `describe(…)` / `it(…)` / `test(…)` call. */
interface TestCall {
  readonly kind: "suite" | "test";
  readonly modifiers: string[];
  /** The `.each` / `.for` link, when the call is one. */
  readonly each?: Link;
}

/** The title of a call: the titles it stands for, or why it has none. */
type Titles = { readonly titles: string[]; readonly each: boolean } | { readonly source: string };

/**
 * Extracts every test title of a TypeScript test file with the TypeScript compiler API, the way
 * vitest would name the tests: `describe` / `suite` / `it` / `test` calls with literal titles,
 * nested describes as the describe path, `.each` / `.for` expanded where the cases are literals
 * (arrays, objects and tagged-template tables, also through `const`s of the same file), kept as
 * the template with modifier `each` otherwise, and `.skip` / `.only` / `.todo` / `.skipIf` /
 * `.runIf` noted as modifiers (a describe's pass to the tests inside it).
 *
 * Conformance cases written as `defineCases(group, { "title": async () => … })` are tests too:
 * each literal property name is a title, under describe path `[…, group]`.
 *
 * Test calls whose title is computed at run time are listed in `unresolved`.
 */
export function extractTitles(source: string, fileName = "test.ts"): Extraction {
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const lookup = constLookup(sourceFile);
  const tests: TestTitle[] = [];
  const unresolved: UnresolvedTitle[] = [];
  const lineOf = (node: ts.Node) =>
    sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;

  const visit = (node: ts.Node, path: readonly string[], inherited: readonly string[]): void => {
    if (ts.isCallExpression(node) && !isCallee(node)) {
      const call = testCall(node);
      if (call !== undefined) {
        handleTestCall(node, call, path, inherited);
        return;
      }
      if (isDefineCases(node)) {
        handleDefineCases(node, path, inherited);
        return;
      }
    }
    ts.forEachChild(node, (child) => visit(child, path, inherited));
  };

  const handleTestCall = (
    node: ts.CallExpression,
    call: TestCall,
    path: readonly string[],
    inherited: readonly string[],
  ): void => {
    const [titleArg, ...rest] = node.arguments;
    const titles = titleArg === undefined ? { source: "" } : titlesOf(titleArg, call, lookup);
    const own = [...inherited, ...call.modifiers.filter((m) => !inherited.includes(m))];
    if (call.kind === "test") {
      if ("source" in titles) {
        unresolved.push({ describe: path, source: titles.source, line: lineOf(node) });
      } else {
        const modifiers = titles.each ? [...own, "each"] : own;
        for (const title of titles.titles) tests.push(entry(path, title, modifiers));
      }
      for (const arg of rest) visit(arg, path, inherited);
      return;
    }
    const names = "source" in titles ? [titles.source] : titles.titles;
    const passOn = own.filter((m) => INHERITED.has(m));
    const eachDescribe = !("source" in titles) && titles.each;
    for (const name of names) {
      const tagged = eachDescribe ? [...passOn, "each"] : passOn;
      for (const arg of rest) visit(arg, [...path, name], tagged);
    }
  };

  const handleDefineCases = (
    node: ts.CallExpression,
    path: readonly string[],
    inherited: readonly string[],
  ): void => {
    const [groupArg, casesArg] = node.arguments;
    const group = groupArg === undefined ? undefined : literalString(groupArg);
    const cases = casesArg === undefined ? undefined : unwrap(casesArg);
    if (group === undefined || cases === undefined || !ts.isObjectLiteralExpression(cases)) {
      ts.forEachChild(node, (child) => visit(child, path, inherited));
      return;
    }
    for (const property of cases.properties) {
      const name = property.name === undefined ? undefined : propertyName(property.name);
      if (name === undefined) {
        unresolved.push({
          describe: [...path, group],
          source: property.getText(),
          line: lineOf(property),
        });
      } else {
        tests.push(entry([...path, group], name, inherited));
      }
    }
  };

  visit(sourceFile, [], []);
  return { tests, unresolved };
}

function entry(path: readonly string[], title: string, modifiers: readonly string[]): TestTitle {
  return modifiers.length === 0
    ? { describe: [...path], title }
    : { describe: [...path], title, modifiers: [...modifiers] };
}

/** True when `node` is itself called or tagged, as `it.each(cases)` in `it.each(cases)(…)`. */
function isCallee(node: ts.CallExpression): boolean {
  const parent = node.parent;
  return (
    (ts.isCallExpression(parent) && parent.expression === node) ||
    (ts.isTaggedTemplateExpression(parent) && parent.tag === node)
  );
}

function isDefineCases(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === "defineCases";
  return ts.isPropertyAccessExpression(callee) && callee.name.text === "defineCases";
}

/** Reads `root.a.b(args).c\`table\`` into its root identifier and links, or `undefined`. */
function chainOf(expression: ts.Expression): { root: string; links: Link[] } | undefined {
  if (ts.isIdentifier(expression)) return { root: expression.text, links: [] };
  if (ts.isPropertyAccessExpression(expression)) {
    const inner = chainOf(expression.expression);
    inner?.links.push({ name: expression.name.text });
    return inner;
  }
  if (ts.isCallExpression(expression) || ts.isTaggedTemplateExpression(expression)) {
    const inner = chainOf(ts.isCallExpression(expression) ? expression.expression : expression.tag);
    const last = inner?.links.at(-1);
    if (last === undefined || last.args !== undefined || last.table !== undefined) return undefined;
    if (ts.isCallExpression(expression)) last.args = expression.arguments;
    else last.table = expression.template;
    return inner;
  }
  return undefined;
}

/** Recognises a test or suite call, or returns `undefined`. */
function testCall(node: ts.CallExpression): TestCall | undefined {
  const chain = chainOf(node.expression);
  if (chain === undefined) return undefined;
  const kind = SUITE_ROOTS.has(chain.root)
    ? "suite"
    : TEST_ROOTS.has(chain.root)
      ? "test"
      : undefined;
  if (kind === undefined) return undefined;
  const modifiers: string[] = [];
  let each: Link | undefined;
  for (const link of chain.links) {
    const called = link.args !== undefined || link.table !== undefined;
    if (link.name === "each" || link.name === "for") {
      if (!called || each !== undefined) return undefined;
      each = link;
    } else if (link.name === "skipIf" || link.name === "runIf") {
      if (!called) return undefined;
      modifiers.push(link.name);
    } else if (NOTED.has(link.name) || IGNORED.has(link.name)) {
      if (called) return undefined;
      if (NOTED.has(link.name)) modifiers.push(link.name);
    } else {
      return undefined;
    }
  }
  return each === undefined ? { kind, modifiers } : { kind, modifiers, each };
}

/** The titles a call stands for: one, or one per case of `.each` when its cases are literals. */
function titlesOf(titleArg: ts.Expression, call: TestCall, lookup: ConstLookup): Titles {
  const template = literalString(titleArg);
  if (template === undefined) return { source: titleArg.getText() };
  if (call.each === undefined) return { titles: [template], each: false };
  const cases = eachCases(call.each, lookup);
  if (cases === undefined) return { titles: [template], each: true };
  const titles: string[] = [];
  for (const [index, item] of cases.entries()) {
    const title = formatEachTitle(template, Array.isArray(item) ? item : [item], index);
    if (title === undefined) return { titles: [template], each: true };
    titles.push(title);
  }
  return { titles, each: false };
}

/** The literal cases of an `.each` / `.for` link, or `undefined` when they are not literals. */
function eachCases(link: Link, lookup: ConstLookup): unknown[] | undefined {
  if (link.table !== undefined) return tableCases(link.table, lookup);
  const [first, ...more] = link.args ?? [];
  if (first === undefined || more.length > 0) return undefined;
  const cases = literalValue(first, lookup);
  return Array.isArray(cases) ? cases : undefined;
}

/**
 * The cases of a tagged-template table (`` it.each`a | b ${1} | ${2}` ``): one object per row,
 * keyed by the header, as vitest's `formatTemplateString` builds them.
 */
function tableCases(table: ts.TemplateLiteral, lookup: ConstLookup): unknown[] | undefined {
  if (ts.isNoSubstitutionTemplateLiteral(table)) return undefined;
  const text = table.head.text + table.templateSpans.map((span) => span.literal.text).join("");
  const header = text.trim().replace(/ /g, "").split("\n")[0]?.split("|") ?? [];
  const values: unknown[] = [];
  for (const span of table.templateSpans) {
    const value = literalValue(span.expression, lookup);
    if (value === NOT_LITERAL) return undefined;
    values.push(value);
  }
  if (header.length === 0) return undefined;
  const rows: Record<string, unknown>[] = [];
  for (let row = 0; row < Math.floor(values.length / header.length); row++) {
    const item: Record<string, unknown> = {};
    for (const [column, key] of header.entries()) item[key] = values[row * header.length + column];
    rows.push(item);
  }
  return rows;
}
