/** The agent commands the support bot understands. */
export type AgentCommand =
  | { readonly name: "take" | "release" | "extend" | "show"; readonly target?: string }
  | { readonly name: "say"; readonly target: string; readonly text: string }
  | { readonly name: "help" };

// Leading handles are allowed so `@support /agent take` works where the bot only hears mentions.
// `\/agent` must be followed by whitespace or the end, so `/agents` or `/agentx` is plain text.
const COMMAND = /^(?:@\S+\s+)*\/agent(?:\s+([\s\S]*))?$/i;
const SAY = /^say\s+(\S+)\s+([\s\S]*\S)\s*$/i;
const TARGETED = new Set(["take", "release", "extend", "show"]);

/**
 * Reads `/agent <subcommand> [conversation]` (or `/agent say <conversation> <text>`) from a
 * message text. Returns `undefined` when the text is not an `/agent` command at all, and
 * `{ name: "help" }` for a bare, unknown or malformed one, so an agent's typo is answered with
 * the usage instead of being treated as a question for the assistant.
 */
export function parseAgentCommand(text: string): AgentCommand | undefined {
  const match = COMMAND.exec(text.trim());
  if (!match) return undefined;
  const rest = (match[1] ?? "").trim();
  const say = SAY.exec(rest);
  if (say?.[1] && say[2]) return { name: "say", target: say[1], text: say[2] };
  const [name = "", target, ...extra] = rest.split(/\s+/);
  const lower = name.toLowerCase();
  if (!TARGETED.has(lower) || extra.length > 0) return { name: "help" };
  const command = lower as "take" | "release" | "extend" | "show";
  return target === undefined ? { name: command } : { name: command, target };
}
