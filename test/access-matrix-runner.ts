import { describe, expect, it } from 'vitest';
import { callAs, callerProfiles, type AccessWorld, type Caller, type CallerProfile, type ErrorExpectation } from './access-fixture.js';
import type { TestContext } from './build-test-app.js';
import { call, type Response } from './factories.js';

/**
 * Endpoints × every kind of caller of `callerProfiles`. A matrix is its rows (one endpoint each:
 * how to call it, what its happy path does) and one rule giving each caller's expected outcome;
 * a new capability adds rows, and a rule when its access differs.
 */

/** A refusal: the exact error, or its status and code when the message names the case. */
export type Refusal = ErrorExpectation | { status: number; code: string };
export type Outcome = 'ok' | Refusal;

export interface AccessRow<Target> {
  /** Also the name of the row's `describe` block. */
  name: string;
  method: 'GET' | 'POST';
  path(target: Target): string;
  body?(caller: Caller, target: Target): unknown;
  /** The happy path: the response body and its effect. */
  checkOk(body: any, caller: Caller, target: Target): void | Promise<void>;
  /** After a refused call: nothing changed. */
  checkUnchanged?(caller: Caller, target: Target): Promise<void>;
}

/** Calls that must all answer exactly as for an id that does not exist. */
export interface HiddenCheck<Row, Target> {
  /** The test's name, the same for every row. */
  name: string;
  /** The answer to every call; null when the row has nothing to hide (no id in its path). */
  expected(row: Row): ErrorExpectation | null;
  calls(row: Row, own: Target): Array<{ caller: Caller; target: Target }>;
  /** After the calls: the target is still there. */
  afterwards?(own: Target): Promise<void>;
}

/** Every route the app registers under `tags` (OpenAPI) is a row, or listed in `exempt`. */
export interface RouteCoverage<Row> {
  name: string;
  tags: string[];
  /** The row's route as OpenAPI spells it: `GET /api/space/{sid}/get`. */
  route(row: Row): string;
  exempt?: string[];
}

export interface AccessMatrix<Row extends AccessRow<Target>, Target> {
  ctx: TestContext;
  /** The callers' world, built in a `beforeAll` of the test file. */
  world(): AccessWorld;
  rows: readonly Row[];
  /** Known before any database exists, so that each test is named after the expected outcome. */
  expectedOutcome(row: Row, caller: CallerProfile): Outcome;
  /** The target of one call: its own for writes that consume or change it, a shared one otherwise. */
  target(row: Row): Promise<Target>;
  /** What a refused call must leave as it was, read before and after the call. */
  snapshot?(target: Target): Promise<unknown>;
  hidden?: HiddenCheck<Row, Target>;
  coverage?: RouteCoverage<Row>;
  /** More tests of one row, in its `describe` block after the matrix's. */
  moreTests?(row: Row): void;
}

export function describeOutcome(outcome: Outcome): string {
  return outcome === 'ok' ? '200' : `${outcome.status} ${'message' in outcome ? outcome.message : outcome.code}`;
}

export function expectRefused(response: Response, refusal: Refusal): void {
  if ('message' in refusal) {
    expect({ status: response.status, body: response.body }).toEqual({ status: refusal.status, body: { error: { code: refusal.code, message: refusal.message } } });
  } else {
    expect(response.status, JSON.stringify(response.body)).toBe(refusal.status);
    expect(response.body.error.code).toBe(refusal.code);
  }
}

/** Registers the matrix's tests: one `describe` per row, one test per caller. */
export function describeAccessMatrix<Row extends AccessRow<Target>, Target>(matrix: AccessMatrix<Row, Target>): void {
  const { ctx, coverage, hidden } = matrix;
  if (coverage) {
    it(coverage.name, async () => {
      const document = (await call(ctx, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, { tags?: string[] }>> };
      const registered = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(([, operation]) => operation.tags?.some((tag) => coverage.tags.includes(tag)))
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      );
      expect(new Set(registered)).toEqual(new Set([...matrix.rows.map(coverage.route), ...(coverage.exempt ?? [])]));
    });
  }

  for (const row of matrix.rows) {
    describe(row.name, () => {
      for (const profile of callerProfiles) {
        const outcome = matrix.expectedOutcome(row, profile);
        it(`answers ${describeOutcome(outcome)} to ${profile.name}`, async () => {
          const caller = matrix.world().caller(profile.name);
          const target = await matrix.target(row);
          const before = await matrix.snapshot?.(target);
          const response = await callAs(ctx, caller, row.method, row.path(target), row.body?.(caller, target));
          if (outcome === 'ok') {
            expect(response.status, JSON.stringify(response.body)).toBe(200);
            expect(response.headers['content-type']).toMatch(/^application\/json/);
            await row.checkOk(response.body, caller, target);
          } else {
            expectRefused(response, outcome);
            await row.checkUnchanged?.(caller, target);
            if (matrix.snapshot) expect(await matrix.snapshot(target), 'what a refused call must leave as it was').toEqual(before);
          }
        });
      }

      const expected = hidden?.expected(row);
      if (hidden && expected) {
        it(hidden.name, async () => {
          const own = await matrix.target(row);
          for (const { caller, target } of hidden.calls(row, own)) {
            const response = await callAs(ctx, caller, row.method, row.path(target), row.body?.(caller, target));
            expect({ status: response.status, body: response.body }, `${caller.name} on ${row.path(target)}`).toEqual({
              status: expected.status,
              body: { error: { code: expected.code, message: expected.message } },
            });
          }
          await hidden.afterwards?.(own);
        });
      }

      matrix.moreTests?.(row);
    });
  }
}
