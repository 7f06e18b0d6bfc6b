import pg from 'pg';

/** What the load generators share: the PostgreSQL administration connection and a JSON call to a Tabula server. */
export const adminUrl = process.env.TABULA_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One statement on the administration connection (create or drop a bench database). */
export async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the administration connection's server. */
export const databaseUrlOf = (name: string) => adminUrl.replace(/\/[^/]*$/, `/${name}`);

/** A JSON call with an API key; anything but 2xx throws with the answer's status and text. */
export async function callApi(base: string, key: string, method: 'GET' | 'POST', pathname: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${pathname}`, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text}`);
  return JSON.parse(text);
}
