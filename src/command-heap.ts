/**
 * `tabula export` and `tabula serve` run with V8's young generation bounded to 8 MB a
 * semi-space. V8 grows the young generation with the allocation rate, up to 16 MB a semi-space
 * under Node 22 and 32 under Node 24, and both reach it: a million-record export peaked at
 * 260-285 MB under Node 24 against 145-185 MB bounded, at the same speed (docs/decisions.md,
 * "Export memory"); a server under issue 32's load holds 6-18 MB less, at the same requests a
 * second (decisions.md, "A server's young generation bounded"). The bound can only be set when
 * node starts, so the command re-executes itself once with the flag (`process.execve`: the same
 * process, its descriptors and terminal kept). `import` keeps V8's sizing: bounded, it ran
 * 8-12 % slower for no less memory (its batches of 1,000 rows outlive the smaller young
 * generation).
 *
 * `tabula serve` is re-executed with two malloc arenas too (serverMemoryEnv).
 *
 * Free of imports, like node-version.ts: it runs before anything is loaded twice.
 */
const boundedCommands = new Set(['export', 'serve']);
const youngGenerationFlag = '--max-semi-space-size';
const semiSpaceMb = 8;

/** The argv to re-execute with, or null: not a bounded command, or the size is set already (by us or the operator). */
export function boundedHeapArgv(options: { argv: readonly string[]; execArgv: readonly string[]; nodeOptions: string | undefined; execPath: string }): string[] | null {
  const [, script, command] = options.argv;
  if (!script || !command || !boundedCommands.has(command)) return null;
  const setAlready = [...options.execArgv, ...(options.nodeOptions ?? '').split(/\s+/)].some((flag) => flag.replace(/_/g, '-').startsWith(youngGenerationFlag));
  if (setAlready) return null;
  return [options.execPath, `${youngGenerationFlag}=${semiSpaceMb}`, ...options.execArgv, ...options.argv.slice(1)];
}

/**
 * glibc's malloc arenas a server may make. It makes one for each thread that allocates beside
 * another (up to 8 a core): the query workers' SQLite caches, V8's helper threads. At two they
 * held 8-10 MB less, at the same requests a second. Only read when the process starts, so
 * it goes with the re-execution; an operator's own setting stays.
 */
const serverMallocArenas = '2';

/** The environment to re-execute `command` with. */
export function serverMemoryEnv(command: string | undefined, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (command !== 'serve' || env.MALLOC_ARENA_MAX !== undefined) return env;
  return { ...env, MALLOC_ARENA_MAX: serverMallocArenas };
}

/** Re-executes this process with a bounded young generation when boundedHeapArgv says so; returns otherwise (also where there is no `execve`: Windows, Node before 22.15). */
export function reexecWithBoundedHeap(): void {
  if (typeof process.execve !== 'function') return;
  const argv = boundedHeapArgv({ argv: process.argv, execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS, execPath: process.execPath });
  if (argv) process.execve(process.execPath, argv, serverMemoryEnv(process.argv[2], process.env));
}
