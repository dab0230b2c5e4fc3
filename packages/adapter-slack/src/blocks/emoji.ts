import { convertEmojiPlaceholders } from "@baton/core";

const PLACEHOLDER = /\{\{emoji:([A-Za-z0-9_+-]+)\}\}/g;

/**
 * Every `{{emoji:name}}` placeholder written as `:name:`, the name exactly as given (upstream's
 * `@chat-adapter/slack/blocks` default): `{{emoji:thumbs_up}}` becomes `:thumbs_up:`.
 */
export function convertSlackEmojiPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, ":$1:");
}

/**
 * Every `{{emoji:name}}` placeholder written with Slack's name from core's emoji map, which is
 * what the adapter posts: `{{emoji:thumbs_up}}` becomes `:+1:`; an unmapped name stays as given.
 */
export function mapSlackEmojiPlaceholders(text: string): string {
  return convertEmojiPlaceholders(text, "slack");
}
