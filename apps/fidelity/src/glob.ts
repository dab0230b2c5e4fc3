import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Directories never searched: installs, builds and caches. */
const SKIPPED_DIRECTORIES = new Set(["node_modules", "dist", ".turbo", ".git", "coverage"]);

/**
 * A regular expression for a glob over `/`-separated relative paths: `**` spans any number of
 * directories (also none), `*` and `?` stay within one path segment, `{a,b}` is either.
 */
export function globPattern(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === "*" && glob[i + 1] === "*") {
      const slash = glob[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "{") {
      const end = glob.indexOf("}", i);
      if (end < 0) throw new Error(`glob ${glob}: unclosed "{"`);
      const options = glob.slice(i + 1, end).split(",");
      source += `(?:${options.map((option) => escape(option)).join("|")})`;
      i = end;
    } else {
      source += escape(char);
    }
  }
  return new RegExp(`^${source}$`);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The directory part of a glob before its first wildcard, e.g. `packages` of `packages/*\/x`. */
function staticBase(glob: string): string {
  const segments = glob.split("/");
  const base: string[] = [];
  for (const segment of segments.slice(0, -1)) {
    if (/[*?{]/.test(segment)) break;
    base.push(segment);
  }
  return base.join("/");
}

/**
 * The files under `root` that match any of `globs` (relative, `/`-separated), sorted and without
 * duplicates. Skips `node_modules`, `dist`, `.turbo`, `.git` and `coverage`. A glob whose base
 * directory does not exist matches nothing.
 */
export function expandGlobs(root: string, globs: readonly string[]): string[] {
  const found = new Set<string>();
  for (const glob of globs) {
    const pattern = globPattern(glob);
    for (const file of walk(root, staticBase(glob))) {
      if (pattern.test(file)) found.add(file);
    }
  }
  return [...found].sort();
}

function walk(root: string, directory: string): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(join(root, directory), { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = directory === "" ? entry.name : `${directory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) files.push(...walk(root, path));
    } else if (entry.isFile()) {
      files.push(path);
    }
  }
  return files;
}
