import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Compiles the project (tsconfig.build.json) into a private temporary directory rather than
 * dist/, so that parallel test files and other builds never race on the same output. The
 * directory gets the project's package type and node_modules, so `node DIR/main.js` runs
 * exactly like `node dist/main.js`.
 */
export async function buildServer(): Promise<{ dir: string; main: string; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tabula-rl-build-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    fs.symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    // The server reads its own assets (the docs' logo) beside its dist/, as in the package.
    fs.symlinkSync(path.join(projectRoot, 'assets'), path.join(dir, 'assets'), 'dir');
    const tsc = path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', path.join(projectRoot, 'tsconfig.build.json'), '--outDir', path.join(dir, 'dist')], { cwd: projectRoot, env: process.env });
    const main = path.join(dir, 'dist', 'main.js');
    if (!fs.existsSync(main)) throw new Error(`build failed (exit ${result.code}):\n${result.stdout}${result.stderr}`);
    // tsc still emits on type errors; those belong to the typecheck step, not to this test.
    if (result.code !== 0) console.warn(`tsc reported errors but emitted the build:\n${result.stdout}`);
    return { dir, main, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The environment of a spawned command: the test's, minus anything that would pick another database or server. */
export function serverEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'TABULA_DATA_DIR', 'PORT', 'HOST', 'REDIS_URL', 'TABULA_RATE_LIMIT_PER_MINUTE', 'TABULA_REDIS_PREFIX', 'TABULA_STORAGE_URL', 'TABULA_SECRET', 'NODE_OPTIONS', 'LOG_LEVEL']) {
    delete env[name];
  }
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  return env;
}

/** Runs one CLI command to completion; a non-zero exit is an error carrying stderr. */
export async function runCli(main: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const result = await run(process.execPath, [main, ...args], { env });
  if (result.code !== 0) throw new Error(`tabula ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}

export interface ServerProcess {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// Last resort if the test process goes away without its cleanup hooks: no server outlives it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Spawns `tabula serve --port 0` and resolves with its address once it prints `listening on …`. */
export function startServer(main: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 20_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [main, 'serve', '--port', '0', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => running.delete(child));

  const server: ServerProcess = {
    url: '',
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
  };

  return new Promise((resolve, reject) => {
    const fail = async (reason: string) => {
      clearTimeout(timer);
      await server.stop();
      reject(new Error(`${reason}\n--- server output ---\n${output}`));
    };
    const timer = setTimeout(() => void fail(`server did not print "listening on" within ${timeoutMs} ms`), timeoutMs);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match && !server.url) {
        clearTimeout(timer);
        server.url = match[1];
        resolve(server);
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', (error) => void fail(`could not spawn the server: ${error.message}`));
    child.once('exit', (code, signal) => {
      if (!server.url) void fail(`server exited (code ${code}, signal ${signal}) before listening`);
    });
  });
}
