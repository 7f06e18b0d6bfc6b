#!/usr/bin/env node
/** The `tabula` entry point: the Node.js version first, then the command line (cli/tabula.ts). */
import { nodeVersionProblem } from './node-version.js';

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`tabula: ${problem}\n`);
  process.exit(1);
}
await import('./cli/tabula.js');
