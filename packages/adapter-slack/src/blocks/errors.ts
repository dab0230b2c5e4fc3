/**
 * Raised by the Block Kit renderer and builders for input Slack would refuse and that they cannot
 * repair without changing its meaning (an option id too long to come back unchanged, a `maxBlocks`
 * outside Slack's 1 to 50). The message names the input and the limit.
 */
export class SlackBlockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SlackBlockError";
  }
}
