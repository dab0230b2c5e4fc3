import { startPlayground } from "./server.js";

/**
 * `npm start` / `pnpm start`: runs the playground until Ctrl-C. PORT picks the port (default
 * 3000).
 */
async function main(): Promise<void> {
  const port = process.env.PORT === undefined ? 3000 : Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`PORT must be a port number, got ${JSON.stringify(process.env.PORT)}`);
    process.exit(1);
  }
  let playground: Awaited<ReturnType<typeof startPlayground>>;
  try {
    playground = await startPlayground({ port });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") {
      console.error(`Port ${port} is in use. Start on another one: PORT=3001 npm start`);
      process.exit(1);
    }
    throw error;
  }
  console.log(`Baton playground: ${playground.url}`);
  console.log("Open it in a browser; press Ctrl-C to stop.");
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1); // a second Ctrl-C: do not wait
    stopping = true;
    playground.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

await main();
