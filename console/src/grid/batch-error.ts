/** The server's `records[<i>]: …` message with the record it means named by its row and title. */
export function describeBatchError(message: string, top: number, titles: string[]): string {
  const match = /^records\[(\d+)\]: (.*)$/s.exec(message);
  if (!match) return message;
  const index = Number(match[1]);
  return `${titles[index] ?? `row ${top + index + 1}`}: ${match[2]}`;
}
