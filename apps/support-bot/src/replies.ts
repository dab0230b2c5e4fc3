/**
 * Every text the support bot posts, in one place so tests and the README quote the same words.
 * Customer-facing notices go into the customer's conversation; `desk` texts answer an agent's
 * command in the conversation where the agent typed it.
 */
export const replies = {
  welcome:
    "Hi, I'm the support assistant. Ask me anything; a person from the team can join if needed.",
  agentJoined: (agentName: string) =>
    `An agent has joined: ${agentName} will take it from here. The assistant stays quiet meanwhile.`,
  assistantBack: "The assistant is back. Ask me anything.",
  holdLapsed: "The agent has left the conversation. The assistant is back.",
  notAnAgent: "Sorry, only support agents can use /agent commands.",
} as const;

/**
 * The canned "assistant" answer. A real bot calls its model here; this one says what it
 * answered and how many messages the run covered (`context.skipped.length + 1`, agent messages
 * left out), which is what the concurrency story is about.
 */
export function assistantAnswer(question: string, messageCount: number): string {
  const about = `“${shorten(question)}”`;
  if (messageCount === 1) return `Assistant: here is what I found about ${about}.`;
  return `Assistant: I read your ${messageCount} messages at once; here is what I found about the latest, ${about}.`;
}

/** Answers to agents' `/agent …` commands. `t` is a conversation (thread) id. */
export const desk = {
  usage: [
    "Agent commands:",
    "/agent take [conversation] — the assistant goes quiet there; you answer",
    "/agent say <conversation> <text> — write to the customer",
    "/agent show <conversation> — the last messages of a conversation",
    "/agent extend [conversation] — keep your hold for another term",
    "/agent release [conversation] — hand the conversation back to the assistant",
    "Without a conversation id, a command applies to the conversation it is typed in.",
  ].join("\n"),
  taken: (t: string, until: string) =>
    `You hold ${t} until ${until}. Hand it back with: /agent release ${t}`,
  busy: (t: string) =>
    `${t} is busy: the assistant is answering there right now. Try again in a moment.`,
  heldBy: (t: string, agentName: string) => `${t} is already held by ${agentName}.`,
  ownConversation:
    "This is your own conversation with the assistant. Name the one to take: /agent take <conversation>",
  handedBack: (t: string) => `Handed ${t} back to the assistant.`,
  alreadyEnded: (t: string) => `The hold on ${t} had already ended; the assistant is back there.`,
  notHeld: (t: string) => `No agent holds ${t}.`,
  extended: (t: string, until: string) => `Extended the hold on ${t} until ${until}.`,
  takeFirst: (t: string) => `Take ${t} first: /agent take ${t}`,
  noSuchConversation: (t: string) => `There is no conversation ${JSON.stringify(t)} here.`,
  transcript: (t: string, lines: readonly string[]) =>
    lines.length === 0
      ? `No messages kept for ${t}.`
      : [`Last messages of ${t}:`, ...lines].join("\n"),
  agentSays: (agentName: string, text: string) => `${agentName} (support): ${text}`,
} as const;

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
