import { readFile } from "node:fs/promises";

/** The page's files: a fixed list, so no request path ever reaches the file system. */
const FILES: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/index.html": { file: "index.html", type: "text/html; charset=utf-8" },
  "/style.css": { file: "style.css", type: "text/css; charset=utf-8" },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/chat.js": { file: "chat.js", type: "text/javascript; charset=utf-8" },
  "/timeline.js": { file: "timeline.js", type: "text/javascript; charset=utf-8" },
  "/agent.js": { file: "agent.js", type: "text/javascript; charset=utf-8" },
  "/instances.js": { file: "instances.js", type: "text/javascript; charset=utf-8" },
  "/instances.css": { file: "instances.css", type: "text/css; charset=utf-8" },
  "/favicon.svg": { file: "favicon.svg", type: "image/svg+xml" },
};

const PUBLIC_DIR = new URL("../public/", import.meta.url);

/**
 * Serves the static page for `GET`/`HEAD` of a known path, or `undefined` for anything else.
 * Files are read on every request (no build step, no cache), so an edit shows on reload.
 */
export async function serveStatic(request: Request): Promise<Response | undefined> {
  if (request.method !== "GET" && request.method !== "HEAD") return undefined;
  const entry = FILES[new URL(request.url).pathname];
  if (!entry) return undefined;
  const body = await readFile(new URL(entry.file, PUBLIC_DIR));
  return new Response(request.method === "HEAD" ? null : body, {
    headers: {
      "content-type": entry.type,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
