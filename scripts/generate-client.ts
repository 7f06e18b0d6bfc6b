/**
 * `npm run client:generate`: writes clients/typescript/schema.d.ts from the OpenAPI document of
 * a built app (on a temporary SQLite database, never listening). The test
 * test/http/typescript-client.test.ts renders the same file in memory and compares, so the
 * committed types cannot drift from the routes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';

export const clientSchemaPath = fileURLToPath(new URL('../clients/typescript/schema.d.ts', import.meta.url));

/** The document `GET /api/openapi.json` serves, from an app on a throw-away SQLite database. */
export async function dumpOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-openapi-'));
  try {
    const container = await createContainer(loadConfig({ TABULA_SECRET: 'openapi-dump' }, { data: dataDir }));
    try {
      const app = await buildApp(container);
      await app.ready();
      const document = app.swagger() as unknown as Record<string, unknown>;
      await app.close();
      return document;
    } finally {
      await container.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The text of schema.d.ts for a document; openapi-typescript refuses an invalid document. */
export async function renderClientSchema(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as any, { silent: false });
  return astToString(ast);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const text = await renderClientSchema(await dumpOpenApiDocument());
  fs.writeFileSync(clientSchemaPath, text);
  console.log(`wrote ${path.relative(process.cwd(), clientSchemaPath)}`);
}
