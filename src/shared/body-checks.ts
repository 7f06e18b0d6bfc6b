import { ValidationError } from './errors.js';

/** 400 `Invalid parameters: <problem>`. */
export function invalidParameters(problem: string): ValidationError {
  return new ValidationError(`Invalid parameters: ${problem}`);
}

/**
 * A request body (or a part of one, named by `subject`) that must be a JSON object of the
 * `allowed` properties only: 400 naming the first other one.
 */
export function checkObjectBody(body: unknown, allowed: readonly string[], subject = 'body'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidParameters(`${subject} must be a JSON object`);
  const unknown = Object.keys(body).find((key) => !allowed.includes(key));
  if (unknown) throw invalidParameters(`unknown property "${unknown}"`);
  return body as Record<string, unknown>;
}
