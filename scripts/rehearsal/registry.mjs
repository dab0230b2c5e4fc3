// A local npm registry (verdaccio 6.8, the last line that runs on Node 20) for the rehearsal.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts verdaccio on 127.0.0.1 with its storage under `dir`: `@baton/*` and `create-baton-bot`
 * are served only from what is published to it (never proxied, so npm's copies cannot stand in); every other package is fetched from the npm registry and cached there.
 * Resolves once it answers `/-/ping`; `stop()` ends it.
 */
export async function startRegistry({ dir, verdaccioBin }) {
  const port = await freePort();
  const storage = join(dir, "storage");
  mkdirSync(storage, { recursive: true });
  const config = join(dir, "config.yaml");
  writeFileSync(
    config,
    [
      `storage: ${storage}`,
      "auth:",
      "  htpasswd:",
      `    file: ${join(dir, "htpasswd")}`,
      "    max_users: -1",
      "uplinks:",
      "  npmjs:",
      "    url: https://registry.npmjs.org/",
      "    timeout: 60s",
      "packages:",
      "  '@baton/*':",
      "    access: $all",
      "    publish: $all",
      "  'create-baton-bot':",
      "    access: $all",
      "    publish: $all",
      "  '**':",
      "    access: $all",
      "    proxy: npmjs",
      "log: { type: stdout, format: pretty, level: error }",
      "",
    ].join("\n"),
  );
  const child = spawn(verdaccioBin, ["--config", config, "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let waitedMs = 0; ; waitedMs += 200) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited ${child.exitCode}`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (waitedMs > 60_000) throw new Error("verdaccio did not answer within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    /** An .npmrc that points npm (and pnpm) at this registry, with a token publishing accepts. */
    npmrc: `registry=${url}\n//127.0.0.1:${port}/:_authToken=rehearsal\n`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
