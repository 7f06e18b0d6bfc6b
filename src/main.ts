#!/usr/bin/env node
/** The `tabula` entry point: the Node.js version first, the young generation of `tabula export` and `tabula serve` (command-heap.ts), then the command line (cli/tabula.ts). */
import path from 'node:path';
import { reexecWithBoundedHeap } from './command-heap.js';
import { nodeVersionProblem } from './node-version.js';

const problem = nodeVersionProblem(process.versions.node, entryAsTyped());
if (problem) {
  process.stderr.write(`tabula: ${problem}\n`);
  process.exit(1);
}
reexecWithBoundedHeap();
await import('./cli/tabula.js');

/** This script as the user can type it from here: relative inside the working directory, absolute outside. */
function entryAsTyped(): string {
  const script = process.argv[1] ?? 'dist/main.js';
  const relative = path.relative(process.cwd(), script);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : script;
}
