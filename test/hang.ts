/**
 * Resolves with the call's result, or fails the test if it has not settled after `seconds`:
 * a check that something answers at all (a hang), never a speed check; keep `seconds` generous.
 */
export async function answersAtAll<T>(call: Promise<T>, what: string, seconds = 20): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} never answered (gave up after ${seconds} s)`)), seconds * 1000);
  });
  try {
    return await Promise.race([call, hang]);
  } finally {
    clearTimeout(timer);
  }
}
