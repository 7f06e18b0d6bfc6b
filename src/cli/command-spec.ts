import { parseArgs } from 'node:util';
import { UsageError } from './cli-context.js';

/** One flag of a command: how it parses and what its help line says. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The placeholder shown after a string flag in the help (`--name N`). */
  value?: string;
  help: string;
}

/** A command (`init`) or a subcommand (`keys create`): everything its `--help` prints, and its flags. */
export interface CommandSpec<Options extends Record<string, OptionSpec> = Record<string, OptionSpec>> {
  /** As typed after `tabula`: `keys create`. */
  name: string;
  /** The synopsis after `usage: tabula `. */
  synopsis: string;
  /** One line for the list of a command group's subcommands. */
  summary: string;
  /** What the command does, for its own `--help`. */
  description: string;
  options: Options;
  /** Positional arguments with their help (`ID`, `PATH`). */
  positionals?: ReadonlyArray<readonly [name: string, help: string]>;
  /** Whether the last positional takes any number of values (`ID…`). */
  variadic?: boolean;
  examples: readonly string[];
  /** Whether `--json` applies (default true). */
  json?: boolean;
}

/** The parsed flags of a command: strings for string flags, booleans for the others. */
export type ValuesOf<Options extends Record<string, OptionSpec>> = {
  [K in keyof Options]?: Options[K]['type'] extends 'boolean' ? boolean : string;
} & { data?: string; json?: boolean; help?: boolean };

const dataOption: OptionSpec = { type: 'string', value: 'DIR', help: 'the data directory (default ./data, or TABULA_DATA_DIR); DATABASE_URL=postgres://… selects PostgreSQL instead of its SQLite file' };
const jsonOption: OptionSpec = { type: 'boolean', help: 'print exactly one JSON object on stdout instead of readable lines' };
const helpOption: OptionSpec = { type: 'boolean', help: 'print this help and exit' };

function allOptions(spec: CommandSpec): Record<string, OptionSpec> {
  return { ...spec.options, data: dataOption, ...(spec.json === false ? {} : { json: jsonOption }), help: helpOption };
}

export function usageOf(spec: CommandSpec): string {
  return `usage: tabula ${spec.synopsis}`;
}

/** The usage line and where the full help is: appended to every usage error. */
function usageHint(spec: CommandSpec): string {
  return `${usageOf(spec)}\n(run \`tabula ${spec.name} --help\` for every option and an example)`;
}

function flagLabel(name: string, option: OptionSpec): string {
  const short = name === 'help' ? '-h, ' : '';
  return `${short}--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}`;
}

/** Two columns: labels padded to the widest, then the text. */
function columns(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, text]) => `  ${label.padEnd(width)}  ${text}`);
}

export function formatHelp(spec: CommandSpec): string {
  const lines = [usageOf(spec), '', spec.description, ''];
  if (spec.positionals?.length) lines.push('arguments:', ...columns(spec.positionals), '');
  lines.push('options:', ...columns(Object.entries(allOptions(spec)).map(([name, option]) => [flagLabel(name, option), option.help] as const)), '');
  lines.push(spec.examples.length > 1 ? 'examples:' : 'example:', ...spec.examples.map((example) => `  ${example}`));
  return lines.join('\n');
}

/** Node's parseArgs messages, shortened to name the flag: `unknown option --bogus`. */
function describeParseError(error: Error & { code?: string }): string {
  const unknown = /^Unknown option '([^']+)'/.exec(error.message);
  if (unknown) return `unknown option ${unknown[1]}`;
  const missing = /^Option '(-[^ ']+)(?: <value>)?' argument missing/.exec(error.message) ?? /^Option '(?:-\w, )?(--[^ ']+) <value>' argument missing/.exec(error.message);
  if (missing) return `${missing[1]} needs a value`;
  const noValue = /^Option '(?:-\w, )?(--[^ ']+)' does not take an argument/.exec(error.message);
  if (noValue) return `${noValue[1]} takes no value`;
  return error.message;
}

/**
 * Parses a command line against the spec. `--help` prints the help and answers null; a wrong
 * line throws a UsageError that names the problem and carries the usage.
 */
export function parseCommand<Options extends Record<string, OptionSpec>>(
  spec: CommandSpec<Options>,
  args: string[],
): { values: ValuesOf<Options>; positionals: string[] } | null {
  const options = Object.fromEntries(Object.entries(allOptions(spec)).map(([name, option]) => [name, { type: option.type, ...(name === 'help' ? { short: 'h' } : {}) }]));
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(spec, describeParseError(error as Error));
  }
  if (parsed.values.help) {
    process.stdout.write(`${formatHelp(spec)}\n`);
    return null;
  }
  const allowed = spec.positionals?.length ?? 0;
  if (!spec.variadic && parsed.positionals.length > allowed) throw usageError(spec, `unexpected argument ${JSON.stringify(parsed.positionals[allowed])}`);
  return { values: parsed.values as ValuesOf<Options>, positionals: parsed.positionals };
}

export function usageError(spec: CommandSpec, problem: string): UsageError {
  return new UsageError(`${problem}\n${usageHint(spec)}`);
}

/** A subcommand: its spec and what it does with the parsed line. */
export interface Subcommand {
  spec: CommandSpec;
  run(args: string[]): Promise<void>;
}

/** Binds a spec to its handler; the handler gets typed flags and never sees `--help`. */
export function defineCommand<const Options extends Record<string, OptionSpec>>(
  spec: CommandSpec<Options>,
  handler: (values: ValuesOf<Options>, positionals: string[], spec: CommandSpec<Options>) => Promise<void>,
): Subcommand {
  return {
    spec,
    async run(args) {
      const parsed = parseCommand(spec, args);
      if (parsed) await handler(parsed.values, parsed.positionals, spec);
    },
  };
}

/** A command made of subcommands (`keys create|list|…`): dispatch, and the group's own help. */
export function defineGroup(name: string, description: string, subcommands: readonly Subcommand[]) {
  const synopsis = subcommands.map((sub, index) => `${index === 0 ? 'usage:' : '      '} tabula ${sub.spec.synopsis}`).join('\n');
  const help = [
    synopsis,
    '',
    description,
    '',
    'commands:',
    ...columns(subcommands.map((sub) => [sub.spec.name.split(' ').at(-1)!, sub.spec.summary] as const)),
    '',
    `Run \`tabula ${name} <command> --help\` for its options and an example.`,
  ].join('\n');
  return async (args: string[]): Promise<void> => {
    const [first, ...rest] = args;
    if (first === '--help' || first === '-h' || first === 'help') {
      process.stdout.write(`${help}\n`);
      return;
    }
    const subcommand = subcommands.find((sub) => sub.spec.name === `${name} ${first}`);
    if (!subcommand) {
      const problem = first === undefined || first.startsWith('-') ? `${name} needs a command` : `unknown command "${name} ${first}"`;
      throw new UsageError(`${problem}\n${synopsis}\n(run \`tabula ${name} --help\` for more)`);
    }
    await subcommand.run(rest);
  };
}
