/** A platform the scaffolder can set a bot up on. */
export interface PlatformSpec {
  /** The adapter's key in `new Chat({ adapters })` and the webhook path segment. */
  readonly name: string;
  readonly title: string;
  /** The npm package of its adapter. */
  readonly adapterPackage: string;
  /** The factory the adapter package exports. */
  readonly factory: string;
  /** The environment variables it reads, each with a comment for `.env.example`. */
  readonly env: readonly (readonly [name: string, comment: string])[];
}

/** Every platform the scaffolder knows, in menu order. */
export const PLATFORMS: readonly PlatformSpec[] = [
  {
    name: "web",
    title: "Web chat (browser, over HTTP and server-sent events)",
    adapterPackage: "@baton/adapter-web",
    factory: "createWebAdapter",
    env: [],
  },
  {
    name: "slack",
    title: "Slack (Events API at /api/slack)",
    adapterPackage: "@baton/adapter-slack",
    factory: "createSlackAdapter",
    env: [
      ["SLACK_BOT_TOKEN", "the app's bot token, xoxb-…"],
      ["SLACK_SIGNING_SECRET", "Basic Information → Signing Secret"],
    ],
  },
  {
    name: "teams",
    title: "Microsoft Teams (messaging endpoint /api/teams)",
    adapterPackage: "@baton/adapter-teams",
    factory: "createTeamsAdapter",
    env: [
      ["TEAMS_APP_ID", "the Azure Bot's Microsoft App ID"],
      ["TEAMS_APP_PASSWORD", "its client secret"],
      ["TEAMS_APP_TENANT_ID", "the tenant, for a single-tenant app"],
    ],
  },
  {
    name: "twilio",
    title: "SMS and WhatsApp (Twilio)",
    adapterPackage: "@baton/adapter-twilio",
    factory: "createTwilioAdapter",
    env: [
      ["TWILIO_ACCOUNT_SID", "the account, AC…"],
      ["TWILIO_AUTH_TOKEN", "signs webhooks and authenticates REST calls"],
      ["TWILIO_PHONE_NUMBER", "the bot's number, +1555…"],
      ["TWILIO_WEBHOOK_URL", "the public URL of /api/twilio, exactly as set on the number"],
    ],
  },
  {
    name: "telegram",
    title: "Telegram (webhook at /api/telegram, or long polling)",
    adapterPackage: "@baton/adapter-telegram",
    factory: "createTelegramAdapter",
    env: [
      ["TELEGRAM_BOT_TOKEN", "from @BotFather"],
      ["TELEGRAM_WEBHOOK_SECRET_TOKEN", "the secret_token given to setWebhook"],
      ["TELEGRAM_BOT_USERNAME", "the bot's @username, without the @"],
    ],
  },
];

/** A State backend the scaffolder can set a bot up on. */
export interface StateSpec {
  readonly name: "memory" | "redis" | "postgres";
  readonly title: string;
  readonly package: string;
  readonly factory: string;
  /** The call that builds it in the generated bot, reading its URL from the environment. */
  readonly create: string;
  readonly env: readonly (readonly [name: string, comment: string])[];
}

/** Every State backend, in menu order. */
export const STATES: readonly StateSpec[] = [
  {
    name: "memory",
    title: "Memory (one process; for trying it out)",
    package: "@baton/state-memory",
    factory: "createMemoryState",
    create: "createMemoryState()",
    env: [],
  },
  {
    name: "redis",
    title: "Redis (several replicas)",
    package: "@baton/state-redis",
    factory: "createRedisState",
    create: 'createRedisState({ url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" })',
    env: [["REDIS_URL", "redis://host:6379, shared by every replica"]],
  },
  {
    name: "postgres",
    title: "PostgreSQL (several replicas)",
    package: "@baton/state-pg",
    factory: "createPostgresState",
    create:
      'createPostgresState({ url: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres" })',
    env: [["DATABASE_URL", "postgres://user@host:5432/db, shared by every replica"]],
  },
];

/** The package managers the scaffolder writes commands for. */
export const PACKAGE_MANAGERS = ["npm", "pnpm", "yarn"] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];
