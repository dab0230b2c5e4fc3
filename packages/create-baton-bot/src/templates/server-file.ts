import type { ProjectPlan } from "./project-files.js";

/** `src/server.ts`: a node:http server that hands each platform's webhook to the bot. */
export function serverFile(plan: ProjectPlan): string {
  const names = plan.platforms.map((platform) => `"${platform.name}"`).join(", ");
  return `import { createServer } from "node:http";
import { createBot } from "./bot.js";

const bot = createBot();
const PLATFORMS = [${names}];

/** A node:http request as a web-standard Request (the body is streamed through). */
function toRequest(req: import("node:http").IncomingMessage): Request {
  const url = new URL(req.url ?? "/", \`http://\${req.headers.host ?? "localhost"}\`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    ...(hasBody ? { body: req as unknown as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

const server = createServer(async (req, res) => {
  // /api/{platform}[/…]: each platform's webhook (the web adapter serves …/messages and …/events).
  const [, api, platform] = (req.url ?? "/").split("?")[0]?.split("/") ?? [];
  const webhook = api === "api" && platform && PLATFORMS.includes(platform) ? bot.webhooks[platform] : undefined;
  const response = webhook ? await webhook(toRequest(req)) : new Response("not found", { status: 404 });
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
});

const port = Number(process.env.PORT ?? 3000);
server.listen(port, () => console.log(\`bot listening on http://localhost:\${port}\`));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    server.close();
    await bot.shutdown();
    process.exit(0);
  });
}
`;
}
