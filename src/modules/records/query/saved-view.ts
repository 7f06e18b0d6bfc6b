import type { MetadataReads } from '../../../db/metadata-cache.js';

/** What a query through a saved view takes from it: its filters and its sort. */
export interface SavedViewQuery {
  /** Filter objects as saved (checked when the view was saved). */
  filters: unknown[];
  orderBy: string | null;
  orderDir: 'asc' | 'desc';
}

/**
 * How records reach saved views (the views module implements it, and records never import
 * views): view `viewId` of table `tableId`, or undefined when the table has no such view.
 * Views are metadata: read through the request's metadata reads, cached per process and
 * confirmed by the query's own statement like the table itself.
 */
export interface SavedViewReader {
  find(reads: MetadataReads, tableId: number, viewId: number): Promise<SavedViewQuery | undefined>;
}
