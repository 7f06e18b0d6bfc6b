/**
 * Mentions in comments. The stored form is the specification's token `@{<user id>:<display name>}`;
 * the composer shows `@Display name` and turns each chosen mention into its token on sending.
 */
export interface Mention {
  id: number;
  name: string;
}

const tokenPattern = /@\{(\d+):([^}]*)\}/g;

/** A display name as it may stand in a token (a `}` would end it early). */
export function tokenName(name: string): string {
  return name.replace(/[{}]/g, '').trim();
}

/** The comment's text split into plain runs and mentions, for display. */
export function splitMentions(content: string): (string | Mention)[] {
  const parts: (string | Mention)[] = [];
  let last = 0;
  for (const match of content.matchAll(tokenPattern)) {
    if (match.index > last) parts.push(content.slice(last, match.index));
    parts.push({ id: Number(match[1]), name: match[2] });
    last = match.index + match[0].length;
  }
  if (last < content.length) parts.push(content.slice(last));
  return parts;
}

/** The text as sent: each `@Name` of a chosen mention becomes its token (longest names first, so "Ada L" wins over "Ada"). */
export function toTokens(text: string, mentions: Mention[]): string {
  const byLength = [...mentions].sort((a, b) => b.name.length - a.name.length);
  let result = text;
  for (const mention of byLength) result = result.split(`@${mention.name}`).join(`@{${mention.id}:${mention.name}}`);
  return result;
}

/** A stored comment as the composer edits it: tokens back to `@Name`, with the mentions they were. */
export function fromTokens(content: string): { text: string; mentions: Mention[] } {
  const mentions: Mention[] = [];
  const text = splitMentions(content)
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!mentions.some((mention) => mention.id === part.id && mention.name === part.name)) mentions.push(part);
      return `@${part.name}`;
    })
    .join('');
  return { text, mentions };
}

/** The `@query` being typed just before the caret, if any (an `@` at the start or after a space). */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@{}]{0,40})$/.exec(before);
  return match ? { start: caret - match[2].length - 1, query: match[2] } : null;
}
