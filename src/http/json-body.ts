import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { ErrorCode, ValidationError } from '../shared/errors.js';
import { describeUnstorableValue, maxJsonDepth, scanJsonText } from './json-text.js';

/** Invalid byte sequences are refused, not replaced by U+FFFD: what is stored is what was sent. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function invalidJson(problem: string): ValidationError {
  return new ValidationError(`Invalid JSON body: ${problem}`, ErrorCode.invalidJson);
}

/**
 * JSON bodies: an empty body counts as `{}` (clients send `Content-Type: application/json`
 * on body-less POSTs such as deletes), prototype-poisoning keys are refused, and a syntax
 * error or a byte sequence that is not UTF-8 names itself.
 *
 * Two refusals apply to every body, before any route sees it (json-text.ts): nesting deeper
 * than 64 levels, found before parsing, so that no recursive code ever meets such a value; and
 * a string or property name holding NUL or an unpaired surrogate, which no stored text can
 * equal (PostgreSQL cannot hold NUL; a lone surrogate has no UTF-8 form). One check here
 * covers every string of every endpoint, present and future, on both engines alike.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** A JSON body as every route reads it (see above); throws a ValidationError naming the problem. */
export function parseJsonBody(body: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(body).trim();
  } catch {
    throw invalidJson('not valid UTF-8');
  }
  if (text === '') return {};
  const problem = scanJsonText(text);
  if (problem === 'too_deep') throw invalidJson(`nested deeper than ${maxJsonDepth} levels`);
  let value: unknown;
  try {
    value = secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw invalidJson((error as Error).message);
  }
  const unstorable = problem === null ? null : describeUnstorableValue(value);
  if (unstorable !== null) throw new ValidationError(`Invalid parameters: ${unstorable}`);
  return value;
}
