import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf, assertJsonSessionWrite, clearSessionCookie, sessionTokenOf, setSessionCookie } from '../../http/auth.plugin.js';
import { rememberLoginAddress, throttleLogin } from '../../http/login-throttle.js';
import { responses } from '../../http/schemas.js';
import { isOwner } from './actor.js';
import type { Services } from '../../container.js';

const PublicUser = Type.Object({ id: Type.Integer(), email: Type.String(), name: Type.String() });
const UserBody = Type.Object({ user: PublicUser });
/** Who is calling, and whether they own the account: the console shows owner pages only to the owner. */
const MeBody = Type.Object({ user: PublicUser, account_id: Type.Integer(), is_owner: Type.Boolean() });

export function authRoutes(services: Services): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/api/auth/login', {
      config: { auth: 'public' },
      schema: { tags: ['auth'], body: Type.Object({ email: Type.String({ maxLength: 320 }), password: Type.String({ maxLength: 1024 }) }, { additionalProperties: false }), response: responses(UserBody) },
    }, async (request, reply) => {
      // Password guessing, without letting anyone lock a user out from elsewhere (http/login-throttle.ts).
      await throttleLogin(app, request.body.email, request.ip);
      const { user, token, expiresAt } = await services.auth.login(request.body.email, request.body.password);
      await rememberLoginAddress(app, request.body.email, request.ip);
      // request.protocol believes X-Forwarded-Proto from TABULA_TRUST_PROXY peers only.
      setSessionCookie(reply, token, expiresAt, request.protocol === 'https');
      return { user };
    });

    // Public, so that a stale cookie can still be cleared; a live session must send JSON like every session write.
    app.post('/api/auth/logout', { config: { auth: 'public' }, schema: { tags: ['auth'], response: responses(Type.Object({ ok: Type.Boolean() })) } }, async (request, reply) => {
      const token = sessionTokenOf(request);
      if (token) assertJsonSessionWrite(request);
      if (token) await services.auth.logout(token);
      clearSessionCookie(reply);
      return { ok: true };
    });

    app.post('/api/auth/password', {
      schema: { tags: ['auth'], body: Type.Object({ current: Type.String({ maxLength: 1024 }), new: Type.String({ maxLength: 1024 }) }, { additionalProperties: false }), response: responses(Type.Object({ ok: Type.Literal(true) })) },
    }, async (request) => {
      const actor = actorOf(request);
      // Guessing the current password through a stolen session meets the login throttle (API keys are refused by the service).
      if (actor.via === 'session') await throttleLogin(app, actor.userEmail, request.ip);
      return services.auth.changePassword(actor, sessionTokenOf(request) ?? '', request.body.current, request.body.new);
    });

    app.get('/api/auth/me', { schema: { tags: ['auth'], response: responses(MeBody) } }, async (request) => {
      const actor = actorOf(request);
      return { user: await services.auth.describeUser(actor.userId), account_id: actor.accountId, is_owner: isOwner(actor) };
    });
  };
}
