import { parseArgs } from 'node:util';
import type { AuthTarget } from '../auth/invalidation';
import type { Db } from '../db/client';
import type { StoreWriter } from '../resources/store-writes';
import type { WebhookServices } from '../webhook-delivery/services';

/** Bad command-line syntax: unknown command or option, missing argument. Exit status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The usage text to print after the message; the command's help when empty. */
    readonly usage = '',
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  multiple?: boolean;
  /** Placeholder in the usage line, e.g. `<name>`. */
  value?: string;
  description: string;
}

export interface CommandInput {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** --json: for a command that prints as it goes (the result is printed by runCli either way). */
  json?: boolean;
}

export interface CliContext {
  db: Db;
  /** The database for store writes, which also tell API processes' read caches (src/resources/store-writes.ts). */
  writer: StoreWriter;
  now: Date;
  /** Tells running API processes that a store changed (their verified-key caches drop it). */
  invalidateAuth: (target: AuthTarget) => Promise<void>;
  /** The webhook secret box and URL policy of this configuration (commands that make endpoints). */
  webhooks?: WebhookServices;
  /** Prints a line while a long-running command works (`webhook listen`). */
  progress?: (text: string) => void;
  /** Resolves on Ctrl-C or SIGTERM, which it starts listening for when called. */
  interrupted?: () => Promise<void>;
}

/** What a command hands back: the machine-readable shape for --json and the lines for people. */
export interface CommandResult {
  json: unknown;
  text: string[];
}

export interface Command {
  /** `store create`: the words that select the command. */
  name: string;
  summary: string;
  /** Positional arguments, in order, e.g. `['storeId']`; all required. */
  positionals?: string[];
  options: Record<string, OptionSpec>;
  /** Options that must be given. */
  required?: string[];
  /** More help lines, printed under the options. */
  notes?: string[];
  run(context: CliContext, input: CommandInput): Promise<CommandResult>;
}

export const command = (definition: Command): Command => definition;

export function usageLine(cmd: Command): string {
  const parts = [cmd.name, ...(cmd.positionals ?? []).map((name) => `<${name}>`)];
  for (const [name, spec] of Object.entries(cmd.options)) {
    const flag = spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.value ?? '<value>'}`;
    const shown = spec.multiple ? `${flag}…` : flag;
    parts.push(cmd.required?.includes(name) ? shown : `[${shown}]`);
  }
  return parts.join(' ');
}

export function commandHelp(cmd: Command): string {
  const width = Math.max(...Object.keys(cmd.options).map((name) => name.length), 4) + 4;
  const lines = [`Usage: npm run cli -- ${usageLine(cmd)} [--json]`, '', cmd.summary, '', 'Options:'];
  for (const [name, spec] of Object.entries(cmd.options)) {
    lines.push(`  --${name.padEnd(width)}${spec.description}`);
  }
  lines.push(`  --${'json'.padEnd(width)}Machine-readable output (errors as JSON on stderr)`);
  lines.push(`  --${'help'.padEnd(width)}This help`);
  if (cmd.notes?.length) lines.push('', ...cmd.notes);
  return lines.join('\n');
}

/**
 * Parses a command's arguments (after its name) with node:util parseArgs, strictly: unknown options, a
 * missing value, a missing required option or a wrong number of positionals is a UsageError.
 */
export function parseCommandArgs(
  cmd: Command,
  args: string[],
): CommandInput & { json: boolean; help: boolean } {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, spec] of Object.entries(cmd.options)) {
    options[name] = { type: spec.type, ...(spec.multiple ? { multiple: true } : {}) };
  }
  const help = commandHelp(cmd);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(parseErrorMessage(error), help);
  }
  const { json, help: wantsHelp, ...values } = parsed.values as CommandInput['values'];
  if (wantsHelp) return { values, positionals: parsed.positionals, json: json === true, help: true };
  const expected = cmd.positionals ?? [];
  if (parsed.positionals.length < expected.length) {
    throw new UsageError(`missing <${expected[parsed.positionals.length]}>`, help);
  }
  if (parsed.positionals.length > expected.length) {
    throw new UsageError(`unexpected argument "${parsed.positionals[expected.length]}"`, help);
  }
  for (const name of cmd.required ?? []) {
    const value = values[name];
    if (value === undefined || (typeof value === 'string' && value.trim() === '')) {
      throw new UsageError(`missing --${name}`, help);
    }
  }
  return { values, positionals: parsed.positionals, json: json === true, help: false };
}

/**
 * parseArgs' messages mention "node … --help"; this keeps only what is wrong. Recognised by node's
 * error code; the option's name is read from the message, the only place it is given.
 */
function parseErrorMessage(error: unknown): string {
  // Not `instanceof Error`: node:util's errors may come from another realm (as under Jest).
  const { message: raw, code } = (error ?? {}) as { message?: unknown; code?: unknown };
  const message = typeof raw === 'string' ? raw : String(error);
  const quoted = /'(?:-\w, )?(--?[\w-]+|[^']+)[^']*'/.exec(message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/argument missing/.test(message)) return `${quoted} needs a value`;
      break;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${quoted}"`;
  }
  return message.split('. To specify')[0] ?? message;
}

/** A string option's value, trimmed; undefined when absent. */
export function stringOption(input: CommandInput, name: string): string | undefined {
  const value = input.values[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

export function listOption(input: CommandInput, name: string): string[] {
  const value = input.values[name];
  return Array.isArray(value) ? value.map((item) => item.trim()) : [];
}
