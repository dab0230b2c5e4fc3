// A copy of the working tree for the rehearsal, so a snapshot version never touches the real one.
import { cpSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { run } from "./run-command.mjs";

/**
 * Copies every file git tracks or would track (untracked files that are not ignored) from `root`
 * to `target`, as they are in the working tree: what a release of this tree would contain.
 */
export function copyWorkspace(root, target) {
  const listed = run("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: root,
    quiet: true,
  });
  for (const file of listed.split("\0").filter(Boolean)) {
    const to = join(target, file);
    mkdirSync(dirname(to), { recursive: true });
    try {
      cpSync(join(root, file), to);
    } catch (error) {
      // A file deleted in the working tree but still tracked is not part of this tree.
      if (error?.code !== "ENOENT") throw error;
    }
  }
}
