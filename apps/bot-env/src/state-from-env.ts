import { ConfigError, type Logger, type StateAdapter } from "@baton/core";
import { createMemoryState } from "@baton/state-memory";
import { createPostgresState } from "@baton/state-pg";
import { createRedisState } from "@baton/state-redis";

/** The State the environment asks for, and a line saying which, safe to log. */
export interface ChosenState {
  readonly state: StateAdapter;
  readonly kind: "redis" | "postgres" | "memory";
  /** E.g. `Redis at redis://cache:6379 (key prefix support-bot)`; passwords are masked. */
  readonly description: string;
}

/**
 * Chooses the State from the environment, its keys under `namespace` (the bot's name: every
 * instance of one bot shares it, and other bots on the same server never see its data): `BATON_REDIS_URL` → Redis, `BATON_POSTGRES_URL` →
 * Postgres, neither → memory (one process only: holds, queues and the welcome claim are not
 * shared). Both set is refused rather than guessed. Nothing connects yet: `chat.initialize()`
 * does.
 */
export function stateFromEnv(
  env: NodeJS.ProcessEnv,
  logger: Logger,
  namespace: string,
): ChosenState {
  const redisUrl = nonEmpty(env.BATON_REDIS_URL);
  const postgresUrl = nonEmpty(env.BATON_POSTGRES_URL);
  if (redisUrl && postgresUrl) {
    throw new ConfigError(["set BATON_REDIS_URL or BATON_POSTGRES_URL, not both"]);
  }
  if (redisUrl) {
    return {
      state: createRedisState({ url: redisUrl, keyPrefix: namespace, logger }),
      kind: "redis",
      description: `Redis at ${masked(redisUrl)} (key prefix ${namespace})`,
    };
  }
  if (postgresUrl) {
    return {
      state: createPostgresState({ url: postgresUrl, keyPrefix: namespace, logger }),
      kind: "postgres",
      description: `Postgres at ${masked(postgresUrl)} (schema baton, key prefix ${namespace})`,
    };
  }
  return {
    state: createMemoryState(),
    kind: "memory",
    description: "memory (this process only; set BATON_REDIS_URL or BATON_POSTGRES_URL to share)",
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** The URL with its password replaced, so the startup line can go to shared logs. */
function masked(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
