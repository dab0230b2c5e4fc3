import type { ProjectPlan } from "./project-files.js";

/** `src/bot.ts`: the handlers, and the adapters and State they run on. */
export function botFile(plan: ProjectPlan): string {
  const imports = [
    ...plan.platforms.map(
      (platform) => `import { ${platform.factory} } from "${platform.adapterPackage}";`,
    ),
    'import { type Adapter, Chat, type StateAdapter } from "@baton/core";',
    `import { ${plan.state.factory} } from "${plan.state.package}";`,
  ];
  const adapters = plan.platforms.map((platform) =>
    platform.name === "web"
      ? `    // Who is writing: put your session check here. This demo trusts an x-user header.
    web: createWebAdapter({
      identify: (request) => {
        const userId = request.headers.get("x-user");
        return userId ? { userId, userName: userId } : null;
      },
    }),`
      : `    // Reads its ${platform.env.map(([name]) => name.split("_")[0]).at(0)}_* variables (see .env.example).
    ${platform.name}: ${platform.factory}(),`,
  );
  return `${imports.join("\n")}

/** Builds the bot. Tests pass their own adapters (pointed at offline fakes) and State. */
export function createBot(
  options: { adapters?: Record<string, Adapter>; state?: StateAdapter; sync?: boolean } = {},
): Chat {
  const adapters = options.adapters ?? {
${adapters.join("\n")}
  };
  const bot = new Chat({
    userName: "bot",
    adapters,
    state: options.state ?? ${plan.state.create},
    // One reply at a time per conversation; what arrives meanwhile is answered in one run.
    concurrency: "queue",
    ...(options.sync ? { dispatch: "sync" as const } : {}),
  });

  bot.onDirectMessage(async (thread, message) => {
    await thread.post(\`You said: \${message.text}\`);
  });
  bot.onNewMention(async (thread, message) => {
    await thread.subscribe();
    await thread.post(\`Hi \${message.author.fullName}! I'm listening in this thread now.\`);
  });
  bot.onSubscribedMessage(async (thread, message) => {
    await thread.post(\`You said: \${message.text}\`);
  });
  return bot;
}
`;
}
