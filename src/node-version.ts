/**
 * The Node.js lines Tabula runs on (package.json `engines`: `^22.12 || ^24`). Its own module,
 * free of imports, so the entry point can check before the SQLite driver loads: better-sqlite3
 * 13 (Node-API) crashes on Node 20 instead of failing cleanly. `entry` is the script to name in
 * the way out the message gives.
 */
export function nodeVersionProblem(version: string, entry = 'dist/main.js'): string | null {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 12)) return null;
  // `--yes`: without it npx asks "Ok to proceed?" before every command.
  return `needs Node.js 22.12 or later (22 or 24 LTS); this is v${version.replace(/^v/, '')}. Without installing one, run it through the npm registry's: npx --yes -p node@24 node ${entry} <command>`;
}
