import { platformsFromEnv, stateFromEnv } from "@baton/bot-env";
import { ConsoleLogger } from "@baton/core";
import type { AgentStrategy } from "./bot.js";
import { modelFromEnv } from "./model-from-env.js";
import { startAgentServer } from "./server.js";

/**
 * `pnpm --filter @baton/agent-bot start`: runs the agent bot until Ctrl-C.
 *
 * - `OPENAI_API_KEY` (and `OPENAI_MODEL`, `OPENAI_BASE_URL`): a real model, else the local one;
 * - `BATON_REDIS_URL` or `BATON_POSTGRES_URL`: the shared State (else memory, one process);
 * - `SLACK_*`, `TEAMS_*`, `TELEGRAM_*`, `TWILIO_*`: those platforms too (see `platformsFromEnv`);
 * - `AGENT_STRATEGY`: `queue` (default) or `debounce`;
 * - `PORT` (default 3000), `HOST` (default 127.0.0.1).
 */
async function main(): Promise<void> {
  const logger = new ConsoleLogger("info", "baton");
  const port = process.env.PORT === undefined ? 3000 : Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
    process.exit(1);
  }
  const strategy = (process.env.AGENT_STRATEGY ?? "queue") as AgentStrategy;
  const chosen = modelFromEnv(process.env, logger);
  logger.info(`model: ${chosen.description}; strategy: ${strategy}`);
  const state = stateFromEnv(process.env, logger, "agent-bot");
  logger.info(`state: ${state.description}`);
  const platforms = platformsFromEnv(process.env, logger);
  for (const platform of platforms) {
    logger.info(`platform: ${platform.description}, webhook at ${platform.path}`);
  }
  const server = await startAgentServer({
    state: state.state,
    model: chosen.model,
    strategy,
    port,
    host: process.env.HOST ?? "127.0.0.1",
    logger,
    platforms,
  });
  console.log(`Agent bot: ${server.url} (GET / prints how to talk to it)`);

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
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
