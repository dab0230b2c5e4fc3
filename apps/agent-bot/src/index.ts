export {
  type AgentBot,
  type AgentBotOptions,
  type AgentStrategy,
  createAgentBot,
  notices,
  STOP_ACTION,
} from "./bot.js";
export { createLocalModel, LOCAL_MODEL_TOOL, type LocalModelOptions } from "./local-model.js";
export { type ChosenModel, DEFAULT_OPENAI_MODEL, modelFromEnv } from "./model-from-env.js";
