import type { preParsingAsyncHookHandler } from 'fastify';
import { actorOf } from '../../http/auth.plugin.js';
import type { RecordsService } from './records.service.js';

/**
 * The `preParsing` hook of every route that changes records (record writes, files, comments):
 * a caller who may not write the table (reader, read-only key, a table it cannot see) is
 * refused before its body is read, whatever the body's size or shape. The call checks again.
 */
export function refuseWithoutWriteAccess(records: Pick<RecordsService, 'checkTableAccess'>): preParsingAsyncHookHandler {
  return async (request, _reply, payload) => {
    const tableId = Number((request.params as { tid?: string }).tid);
    // A malformed id is left to the route's parameter validation; one no table can have is
    // already `noSuchId` (http/path-ids.ts), refused here like any missing table.
    if (Number.isInteger(tableId)) await records.checkTableAccess(actorOf(request), tableId, 'write');
    return payload;
  };
}
