/**
 * `npm run lint:openapi`: writes the OpenAPI document a built app serves at /api/openapi.json
 * (temporary SQLite database, never listening) to .test-results/openapi.json, then lints it with
 * Redocly's recommended rules, warnings made errors (redocly.yaml); .redocly.lint-ignore.yaml
 * lists what does not apply, with reasons. Redocly runs offline: no remote rules, plugins or
 * $refs, telemetry off (config and environment), no update check (REDOCLY_SUPPRESS_UPDATE_NOTICE).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpOpenApiDocument } from './generate-client.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const documentPath = path.join(root, '.test-results', 'openapi.json');
fs.mkdirSync(path.dirname(documentPath), { recursive: true });
fs.writeFileSync(documentPath, JSON.stringify(await dumpOpenApiDocument(), null, 2));

const redocly = path.join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const lint = spawnSync(process.execPath, [redocly, 'lint', documentPath], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
});
process.exit(lint.status ?? 1);
