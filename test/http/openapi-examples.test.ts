import fs from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { requestExamples } from '../../src/http/openapi-examples.js';
import { useTestApp } from '../build-test-app.js';
import { call } from '../factories.js';

/**
 * What a first visit to /docs shows (issue 26, item 10): Tabula's name and logo, not Fastify's;
 * "Try it out" pre-filled with a call that makes sense, not `"string"` placeholders; and a
 * document that Redocly's recommended rules pass (servers, license; `npm run lint:openapi` runs
 * the rules themselves in CI).
 */

type Media = { schema: unknown; example?: unknown };
type Operation = { requestBody?: { content: Record<string, Media> } };
type Document = { servers?: Array<{ url: string }>; info: { license?: { name: string; url?: string } }; paths: Record<string, Record<string, Operation>> };

/** `/api/table/{tid}/get` → `/api/table/:tid/get`, the form the examples are keyed in. */
const routeUrl = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

describe('request body examples in the OpenAPI document', () => {
  const ctx = useTestApp();
  const documentOf = async () => (await call(ctx, 'GET', '/api/openapi.json')).body as Document;
  const jsonBodiesOf = (document: Document) =>
    Object.entries(document.paths).flatMap(([path, pathItem]) =>
      Object.entries(pathItem).flatMap(([method, operation]) => {
        const media = operation.requestBody?.content['application/json'];
        return media ? [{ key: `${method.toUpperCase()} ${routeUrl(path)}`, media }] : [];
      }),
    );

  it('gives every JSON request body the example of src/http/openapi-examples.ts, and that file no example without a JSON body', async () => {
    const bodies = jsonBodiesOf(await documentOf());
    expect(bodies.length).toBeGreaterThan(30);
    expect(bodies.filter(({ media }) => media.example === undefined).map(({ key }) => key), 'JSON bodies without an example').toEqual([]);
    for (const { key, media } of bodies) expect(media.example, key).toEqual(requestExamples[key]);
    expect(new Set(Object.keys(requestExamples))).toEqual(new Set(bodies.map(({ key }) => key)));
  });

  it('gives only examples that the documented schema accepts', async () => {
    // strict: false lets OpenAPI's keywords (`example`, `nullable`, which Ajv also honours) through.
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const { key, media } of jsonBodiesOf(await documentOf())) {
      const validate = ajv.compile(media.schema as object);
      expect(validate(media.example) ? [] : validate.errors, key).toEqual([]);
    }
  });

  it('the check above can fail: a misspelt property is refused', async () => {
    const records = jsonBodiesOf(await documentOf()).find(({ key }) => key === 'POST /api/table/:tid/records/create')!;
    const validate = new Ajv({ strict: false }).compile(records.media.schema as object);
    expect(validate({ date: { name: 'Ada' } })).toBe(false);
  });

  it('names its server (relative: whichever serves the document) and its license', async () => {
    const document = await documentOf();
    expect(document.servers).toEqual([{ url: '/', description: 'The server that serves this document' }]);
    const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { license: string };
    expect(document.info.license).toEqual({ name: manifest.license, url: 'https://opensource.org/licenses/MIT' });
  });
});

describe('Swagger UI at /docs is Tabula', () => {
  const ctx = useTestApp();
  const logo = fs.readFileSync(new URL('../../assets/tabula-logo.svg', import.meta.url));
  const icon = fs.readFileSync(new URL('../../assets/tabula-icon.svg', import.meta.url));

  it("shows Tabula's title and icon, not Swagger UI's", async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect(page.body).toContain('<title>Tabula API</title>');
    const iconLink = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page.body);
    expect(iconLink).not.toBeNull();
    const served = await ctx.app.inject({ method: 'GET', url: iconLink![1].startsWith('/') ? iconLink![1] : `/docs/${iconLink![1].replace(/^\.\//, '')}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.rawPayload).toEqual(icon);
  });

  it("puts Tabula's logo in the top bar as a data: URI the page's content security policy allows", async () => {
    const initializer = await ctx.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(initializer.body).toContain(`data:image/svg+xml;base64,${logo.toString('base64')}`);
    const page = await ctx.app.inject({ method: 'GET', url: '/docs' });
    expect(page.headers['content-security-policy']).toContain("img-src 'self' data:");
    expect(logo.toString('utf8')).toContain('<title>Tabula</title>');
  });
});
