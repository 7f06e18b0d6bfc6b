import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorState, LoadingState } from './states';

interface QueryContentProps<T> {
  query: UseQueryResult<T[]>;
  /** What is loading, for the status ("Loading spaces"). */
  loading: string;
  /** Said when the list is empty; without it, an empty list is given to `children` too. */
  empty?: string;
  children(items: T[]): ReactNode;
}

/** A list a page reads: its loading status, its error where it happens, its empty text, or the list itself. */
export function QueryContent<T>({ query, loading, empty, children }: QueryContentProps<T>) {
  if (query.isPending) return <LoadingState label={loading} />;
  if (query.isError) return <ErrorState error={query.error} />;
  if (empty !== undefined && query.data.length === 0) return <p className="empty">{empty}</p>;
  return <>{children(query.data)}</>;
}
