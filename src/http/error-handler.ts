import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, RateLimitedError } from '../shared/errors.js';

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

function send(reply: FastifyReply, status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
  return reply.status(status).type('application/json').send({ error: { code, message, ...extra } });
}

function sendInternalError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  request.log.error({ err: error, requestId: request.id }, 'request failed');
  return send(reply, 500, 'internal_error', `Internal server error (request id ${request.id})`, { request_id: request.id });
}

/**
 * Errors Fastify raises while routing, before any hook or error handler runs: a malformed
 * percent-encoding (FST_ERR_BAD_URL) or a path parameter longer than the router allows
 * (FST_ERR_MAX_PARAM_LENGTH, a 414 by default). Pass this as the `frameworkErrors` option of
 * `Fastify()` so that they answer in the one error shape too, without echoing the path.
 */
export function handleFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') return send(reply, 400, 'invalid_url', 'Invalid URL: malformed percent-encoding');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return send(reply, 400, 'invalid_parameters', 'Invalid parameters: a path parameter is too long');
  return sendInternalError(error, request, reply);
}

/** One place maps every failure to `{error:{code,message}}`; causes of 500s go to the log only. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { validationContext?: string }, request, reply) => {
    if (error instanceof RateLimitedError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
      return send(reply, 429, error.code, error.message);
    }
    if (error instanceof AppError) return send(reply, error.status, error.code, error.message);
    if (error.validation) return send(reply, 400, 'invalid_parameters', describeValidationError(error.validation as AjvError[], error.validationContext));
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) return send(reply, 413, 'payload_too_large', 'Payload Too Large');
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return send(reply, 415, 'unsupported_media_type', 'Content-Type must be application/json');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, error.statusCode, 'bad_request', error.message);
    }
    return sendInternalError(error, request, reply);
  });

  app.setNotFoundHandler((_request, reply) => send(reply, 404, 'not_found', 'Not found'));
}
