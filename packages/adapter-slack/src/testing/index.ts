export {
  type FakeSlack,
  type FakeSlackCall,
  type FakeSlackFailure,
  type FakeSlackOptions,
  startFakeSlack,
} from "./fake-slack.js";
export {
  FAKE_SLACK_METHODS,
  FakeSlackError,
  type FakeSlackIdentity,
} from "./fake-slack-methods.js";
export { type FakeSlackAck, type FakeSlackEnvelope, FakeSlackSocket } from "./fake-slack-socket.js";
export {
  type FakeSlackDownload,
  type FakeSlackFile,
  type FakeSlackMessage,
  type FakeSlackResponseCall,
  type FakeSlackScheduled,
  FakeSlackStore,
  type FakeSlackUser,
  messageJson,
} from "./fake-slack-store.js";
export { type FakeSlackWorkspace, FakeSlackWorkspaces } from "./fake-slack-workspaces.js";
export {
  createSlackWebhookRequest,
  type SlackWebhookRequestInit,
  slackSignature,
} from "./signed-request.js";
