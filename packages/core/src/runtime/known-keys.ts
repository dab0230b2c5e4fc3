import { type ConfigProblems, closestName } from "./config-problems.js";

/**
 * Records a problem for each key of `value` that is not in `known`, with the closest known name
 * when the key looks like a typo of it. A misspelled option would otherwise be ignored silently
 * and its default used. Keys in `ignored` are reported as warnings instead, with their reason.
 */
export function checkKnownKeys(
  found: ConfigProblems,
  path: string,
  value: object,
  known: readonly string[],
  ignored: Readonly<Record<string, string>> = {},
): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const where = path === "" ? key : `${path}.${key}`;
    const reason = Object.hasOwn(ignored, key) ? ignored[key] : undefined;
    if (reason !== undefined) {
      found.warn(where, reason);
      continue;
    }
    const suggestion = closestName(key, known);
    const hint = suggestion === undefined ? "" : ` (did you mean ${JSON.stringify(suggestion)}?)`;
    const message = `unknown option ${JSON.stringify(key)}${hint}`;
    if (path === "") found.problems.push(message);
    else found.add(path, message);
  }
}
