export {
  BOT_FRAMEWORK_ISSUER,
  FakeBotFramework,
  type FakeBotFrameworkOptions,
  type FakeTeamsCall,
  type FakeTeamsRoute,
  startFakeBotFramework,
} from "./fake-bot-framework.js";
export { connectorErrorBody, type FakeTeamsFailure } from "./fake-bot-framework-errors.js";
export { FakeGraph, type FakeGraphCall, type FakeGraphFailure } from "./fake-graph.js";
export { FakeOneDrive, type FakeOneDriveUpload, type FakeUploadInfo } from "./fake-onedrive.js";
export {
  type ActivityTokenInit,
  createTeamsActivityRequest,
  signActivityToken,
  type TeamsActivityRequestInit,
} from "./signed-activity.js";
export { createSigningKey, publicJwk, type SigningKey, signJwt } from "./signing-keys.js";
