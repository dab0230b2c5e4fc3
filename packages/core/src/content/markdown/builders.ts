import type {
  BlockContent,
  Blockquote,
  Code,
  DefinitionContent,
  Delete,
  Emphasis,
  InlineCode,
  Link,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Strong,
  Text,
} from "mdast";

// Builders for composing messages by hand (`{ ast: root([paragraph([strong([text("hi")])])]) }`).
// Each returns a fresh plain object with no `position`, exactly the node remark would parse.

/** A text node holding `value` as is: no markdown in it is interpreted. */
export function text(value: string): Text {
  return { type: "text", value };
}

/** Bold (`**…**`). */
export function strong(children: PhrasingContent[]): Strong {
  return { type: "strong", children };
}

/** Italic (`*…*`). */
export function emphasis(children: PhrasingContent[]): Emphasis {
  return { type: "emphasis", children };
}

/** Strikethrough (GFM `~~…~~`), an mdast `delete` node. */
export function strikethrough(children: PhrasingContent[]): Delete {
  return { type: "delete", children };
}

/** Inline code (`` `…` ``). */
export function inlineCode(value: string): InlineCode {
  return { type: "inlineCode", value };
}

/** A fenced code block; `lang` stays `undefined` when not given. */
export function codeBlock(value: string, lang?: string): Code {
  return { type: "code", value, lang };
}

/** A link to `url` around `children`; `title` stays `undefined` when not given. */
export function link(url: string, children: PhrasingContent[], title?: string): Link {
  return { type: "link", url, children, title };
}

/** A block quote of block content. */
export function blockquote(children: (BlockContent | DefinitionContent)[]): Blockquote {
  return { type: "blockquote", children };
}

/** A paragraph of phrasing content. */
export function paragraph(children: PhrasingContent[]): Paragraph {
  return { type: "paragraph", children };
}

/** The top of a tree: what {@link parseMarkdown} returns and converters render. */
export function root(children: RootContent[]): Root {
  return { type: "root", children };
}
