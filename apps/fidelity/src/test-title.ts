/**
 * One test as a fidelity manifest records it: the describe path (outermost first), the title as
 * vitest shows it, and modifiers such as `each` (a template whose values are not literals, so it
 * could not be expanded), `skip`, `only` or `todo`. The shape of the upstream manifest's entries.
 */
export interface TestTitle {
  readonly describe: readonly string[];
  readonly title: string;
  readonly modifiers?: readonly string[];
}

/** The tests of one test file, as in the upstream manifest (`files[]`). */
export interface TestFile {
  /** Path relative to the repository root, with `/` separators. */
  readonly file: string;
  readonly count: number;
  readonly tests: readonly TestTitle[];
}

/** A test call whose title is computed at run time, so no title can be read from the source. */
export interface UnresolvedTitle {
  readonly describe: readonly string[];
  /** The title expression as written, e.g. `` `${strategy}: every …` ``. */
  readonly source: string;
  /** 1-based line of the call. */
  readonly line: number;
}

/** What {@link extractTitles} finds in one source file. */
export interface Extraction {
  readonly tests: TestTitle[];
  readonly unresolved: UnresolvedTitle[];
}

/** True when the test carries `modifier`. */
export function hasModifier(test: TestTitle, modifier: string): boolean {
  return test.modifiers?.includes(modifier) ?? false;
}
