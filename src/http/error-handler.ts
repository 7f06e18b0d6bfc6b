import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { translateDatabaseError, type TranslateOptions } from '../db/db-errors.js';
import type { DialectName } from '../db/dialect.js';
import { AppError, ErrorCode } from '../shared/errors.js';
import { statusOf } from '../shared/error-codes.js';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** `Invalid parameters: unknown property "x"` or `Invalid parameters: name must be string`. */
export function describeValidationError(errors: AjvError[], context?: string): string {
  const first = errors[0];
  const location = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (first.keyword === 'additionalProperties') {
    const prefix = location ? `${location}: ` : '';
    return `Invalid parameters: ${prefix}unknown property "${String(first.params.additionalProperty)}"`;
  }
  if (first.keyword === 'required') return `Invalid parameters: ${location ? `${location}.` : ''}${String(first.params.missingProperty)} is required`;
  const subject = location || (context === 'body' ? 'body' : context) || 'request';
  return `Invalid parameters: ${subject} ${first.message ?? 'is invalid'}`;
}

function send(reply: FastifyReply, code: ErrorCode, message: string, options: { status?: number; extra?: Record<string, unknown> } = {}) {
  return reply
    .status(options.status ?? statusOf(code))
    .type('application/json')
    .send({ error: { code, message, ...options.extra } });
}

function sendInternalError(error: unknown, request: FastifyRequest, reply: FastifyReply, log: FastifyBaseLogger) {
  log.error({ err: error, requestId: request.id }, 'request failed');
  return send(reply, ErrorCode.internalError, `Internal server error (request id ${request.id})`, { extra: { request_id: request.id } });
}

function sendAppError(error: AppError, reply: FastifyReply) {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  return send(reply, error.code, error.message, { status: error.status });
}

/**
 * Errors Fastify raises while routing, before any hook or error handler runs: a malformed
 * percent-encoding (FST_ERR_BAD_URL) or a path parameter longer than the router allows
 * (FST_ERR_MAX_PARAM_LENGTH, a 414 by default). Pass this as the `frameworkErrors` option of
 * `Fastify()` so that they answer in the one error shape too, without echoing the path.
 */
export function frameworkErrorHandler(log: FastifyBaseLogger) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error.code === 'FST_ERR_BAD_URL') return send(reply, ErrorCode.invalidUrl, 'Invalid URL: malformed percent-encoding');
    if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, ErrorCode.invalidParameters, 'Invalid parameters: a path parameter is too long');
    return sendInternalError(error, request, reply, log);
  };
}

/**
 * One place maps every failure to `{error:{code,message}}`: an AppError as it is, a driver
 * error as db-errors.ts translates it for this engine (409 or 503, its cause logged), anything
 * else as a 500 whose cause goes to the log only.
 */
export function registerErrorHandling(
  app: FastifyInstance,
  database: { dialect: DialectName } & TranslateOptions,
  /** Where a 500's cause and a translated database error go, with the request's id. */
  log: FastifyBaseLogger,
  /** The console's page for unrouted GETs outside the API (http/console.ts); it answers true when it took the request. */
  answerUnrouted?: (request: FastifyRequest, reply: FastifyReply) => boolean,
): void {
  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    if (error instanceof AppError) return sendAppError(error, reply);
    if (error.validation) return send(reply, ErrorCode.invalidParameters, describeValidationError(error.validation as AjvError[], error.validationContext));
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) return send(reply, ErrorCode.payloadTooLarge, 'Payload Too Large');
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, ErrorCode.unsupportedMediaType, 'Content-Type must be application/json');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, ErrorCode.badRequest, error.message, { status: error.statusCode });
    }
    const translated = translateDatabaseError(error, database.dialect, database);
    if (translated) {
      log.warn({ err: error, requestId: request.id, code: translated.code }, 'database error');
      return sendAppError(translated, reply);
    }
    return sendInternalError(error, request, reply, log);
  });

  app.setNotFoundHandler((request, reply) => {
    if (answerUnrouted?.(request, reply)) return reply;
    const allowed = methodsAllowedFor(app, request.url);
    if (allowed.length === 0) return send(reply, ErrorCode.notFound, 'Not found');
    reply.header('allow', allowed.join(', '));
    return send(reply, ErrorCode.methodNotAllowed, `Method ${request.method} not allowed; this path takes ${allowed.join(', ')}`);
  });
}

/** The methods a route is registered for; OPTIONS is left out, as the CORS preflight route answers it on every path. */
const routeMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Which methods the router would take for this path: none means an unknown path (404), some a wrong method (405). */
function methodsAllowedFor(app: FastifyInstance, url: string): string[] {
  const path = url.split('?', 1)[0];
  return routeMethods.filter((method) => app.findRoute({ method, url: path }) !== null);
}
