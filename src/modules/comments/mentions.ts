/** `@{<user id>:<display name>}`: stored verbatim; the id is what counts, the name a snapshot. */
const mentionToken = /@\{(\d{1,10}):[^}]*\}/g;

/** The user ids a comment's content mentions, each once, in order of first mention. */
export function mentionedUserIds(content: string): number[] {
  return [...new Set([...content.matchAll(mentionToken)].map((match) => Number(match[1])))];
}
