import { describe, expect, it } from 'vitest';
import { boundedHeapArgv, serverMemoryEnv } from '../../src/command-heap.js';

const base = { execArgv: [] as string[], nodeOptions: undefined as string | undefined, execPath: '/usr/bin/node' };

describe('the young generation of tabula export and tabula serve', () => {
  it('re-executes export with an 8 MB semi-space, keeping node flags, script and arguments in order', () => {
    expect(boundedHeapArgv({ ...base, argv: ['/usr/bin/node', '/app/dist/main.js', 'export', '--table', '2'] })).toEqual([
      '/usr/bin/node',
      '--max-semi-space-size=8',
      '/app/dist/main.js',
      'export',
      '--table',
      '2',
    ]);
    expect(boundedHeapArgv({ ...base, execArgv: ['--import', './preload.mjs'], argv: ['node', '/app/dist/main.js', 'export', '--table', '2'] })).toEqual([
      '/usr/bin/node',
      '--max-semi-space-size=8',
      '--import',
      './preload.mjs',
      '/app/dist/main.js',
      'export',
      '--table',
      '2',
    ]);
  });

  it('re-executes serve the same way (cluster workers inherit the flag through execArgv)', () => {
    expect(boundedHeapArgv({ ...base, argv: ['node', '/app/dist/main.js', 'serve', '--port', '8080'] })).toEqual(['/usr/bin/node', '--max-semi-space-size=8', '/app/dist/main.js', 'serve', '--port', '8080']);
  });

  it('leaves every other command, and no command, to V8', () => {
    for (const command of ['import', 'init', 'keys', 'migrate', '--help', 'exports']) expect(boundedHeapArgv({ ...base, argv: ['node', 'main.js', command] })).toBeNull();
    expect(boundedHeapArgv({ ...base, argv: ['node', 'main.js'] })).toBeNull();
  });

  it('keeps a size set already: by the re-execution itself, on the command line or in NODE_OPTIONS (either spelling)', () => {
    const argv = ['node', 'main.js', 'export', '--table', '2'];
    expect(boundedHeapArgv({ ...base, argv, execArgv: ['--max-semi-space-size=8'] })).toBeNull();
    expect(boundedHeapArgv({ ...base, argv, execArgv: ['--max_semi_space_size=32'] })).toBeNull();
    expect(boundedHeapArgv({ ...base, argv, nodeOptions: '--enable-source-maps --max-semi-space-size=2' })).toBeNull();
    expect(boundedHeapArgv({ ...base, argv, nodeOptions: '--enable-source-maps' })).not.toBeNull();
  });

  it('re-executes serve with two malloc arenas unless the operator set a number; other commands keep the environment as it is', () => {
    const env = { PATH: '/usr/bin' };
    expect(serverMemoryEnv('serve', env)).toEqual({ PATH: '/usr/bin', MALLOC_ARENA_MAX: '2' });
    expect(serverMemoryEnv('serve', { ...env, MALLOC_ARENA_MAX: '8' })).toEqual({ PATH: '/usr/bin', MALLOC_ARENA_MAX: '8' });
    for (const command of ['export', 'import', undefined]) expect(serverMemoryEnv(command, env)).toBe(env);
  });
});
