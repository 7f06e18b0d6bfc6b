import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import { ValidationError } from '../shared/errors.js';

/**
 * JSON bodies: an empty body counts as `{}` (clients send `Content-Type: application/json`
 * on body-less POSTs such as deletes), prototype-poisoning keys are refused, and a syntax
 * error names itself.
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    try {
      done(null, secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      done(new ValidationError(`Invalid JSON body: ${(error as Error).message}`, 'invalid_json'), undefined);
    }
  });
}
