#!/usr/bin/env node
/** The `tabula` entry point: the Node.js version first, the young generation of `tabula export` (command-heap.ts), then the command line (cli/tabula.ts). */
import { reexecWithBoundedHeap } from './command-heap.js';
import { nodeVersionProblem } from './node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`tabula: ${problem}\n`);
  process.exit(1);
}
reexecWithBoundedHeap();
await import('./cli/tabula.js');
