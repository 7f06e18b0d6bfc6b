import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { ValidationError } from '../shared/errors.js';

/** Invalid byte sequences are refused, not replaced by U+FFFD: what is stored is what was sent. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function invalidJson(problem: string): ValidationError {
  return new ValidationError(`Invalid JSON body: ${problem}`, 'invalid_json');
}

/**
 * JSON bodies: an empty body counts as `{}` (clients send `Content-Type: application/json`
 * on body-less POSTs such as deletes), prototype-poisoning keys are refused, and a syntax
 * error or a byte sequence that is not UTF-8 names itself.
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
    try {
      done(null, secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      done(invalidJson((error as Error).message), undefined);
    }
  });
}
