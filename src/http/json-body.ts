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
    let text: string;
    try {
      text = utf8.decode(body as Buffer).trim();
    } catch {
      return done(invalidJson('not valid UTF-8'), undefined);
    }
    if (text === '') return done(null, {});
    const problem = scanJsonText(text);
    if (problem === 'too_deep') return done(invalidJson(`nested deeper than ${maxJsonDepth} levels`), undefined);
    let value: unknown;
    try {
      value = secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      return done(invalidJson((error as Error).message), undefined);
    }
    const unstorable = problem === null ? null : describeUnstorableValue(value);
    if (unstorable !== null) return done(new ValidationError(`Invalid parameters: ${unstorable}`), undefined);
    done(null, value);
  });
}
