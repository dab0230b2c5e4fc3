import { platformsFromEnv, stateFromEnv } from "@baton/bot-env";
import { ConsoleLogger } from "@baton/core";
import { startSupportServer } from "./server.js";

/**
 * `pnpm --filter @baton/support-bot start`: runs the support bot until Ctrl-C.
 *
 * - `BATON_REDIS_URL` or `BATON_POSTGRES_URL`: the shared State (else memory, one process);
 * - `SUPPORT_AGENT_IDS`: comma-separated user ids allowed to run `/agent …`;
 * - `TWILIO_*`: answer SMS and WhatsApp too (see `platformsFromEnv`);
 * - `TELEGRAM_BOT_TOKEN` (and `TELEGRAM_MODE`): answer on Telegram too, polling by default;
 * - `PORT` (default 3000), `HOST` (default 127.0.0.1).
 */
async function main(): Promise<void> {
  const logger = new ConsoleLogger("info", "baton");
  const port = process.env.PORT === undefined ? 3000 : Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
    process.exit(1);
  }
  const agentIds = (process.env.SUPPORT_AGENT_IDS ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id !== "");
  if (agentIds.length === 0) {
    logger.warn("SUPPORT_AGENT_IDS is empty: nobody can take a conversation over");
  }

  const chosen = stateFromEnv(process.env, logger, "support-bot");
  logger.info(`state: ${chosen.description}`);
  const platforms = platformsFromEnv(process.env, logger);
  for (const platform of platforms) {
    logger.info(`platform: ${platform.description}, webhook at ${platform.path}`);
  }
  const server = await startSupportServer({
    state: chosen.state,
    agentIds,
    port,
    host: process.env.HOST ?? "127.0.0.1",
    logger,
    platforms,
  });
  logger.info(`agents: ${agentIds.join(", ") || "(none)"}`);
  console.log(`Support bot: ${server.url} (GET / prints how to talk to it)`);

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1); // a second Ctrl-C: do not wait
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

await main();
