export {
  type ChosenPlatform,
  platformsFromEnv,
  SLACK_PATH,
  TEAMS_PATH,
  TELEGRAM_PATH,
  TWILIO_PATH,
} from "./platforms-from-env.js";
export { type ChosenState, stateFromEnv } from "./state-from-env.js";
