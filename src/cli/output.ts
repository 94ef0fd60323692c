import { ConfigError } from '../config';
import { classifyError, type ErrorDetail } from '../errors';
import { UsageError } from './args';

/** Dates as ISO strings, BigInts as numbers: what JSON.stringify cannot do by itself. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? Number(item) : item), 2);
}

export const isoOrDash = (date: Date | null | undefined, empty = '-') => (date ? date.toISOString() : empty);

/** Left-aligned columns separated by two spaces. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** Validation paths of the service (`ipAllowlist.0`) named as the CLI's options (`--ip`). */
const optionForField: Record<string, string> = {
  keyName: '--name',
  environment: '--env',
  scopes: '--scope',
  ipAllowlist: '--ip',
  expiresAt: '--expires',
  usageLimit: '--usage-limit',
};

export function optionName(path: string): string {
  const [field = ''] = path.split('.');
  if (!field) return '';
  if (field.startsWith('<') || field.startsWith('--')) return field;
  return optionForField[field] ?? `--${field}`;
}

interface ErrorReport {
  exitCode: number;
  lines: string[];
  json: { error: { code: string; message: string; details?: Array<ErrorDetail & { option: string }> } };
}

/** Usage errors exit 2, everything else 1. Unexpected errors show their message only. */
export function describeError(error: unknown): ErrorReport {
  if (error instanceof UsageError) {
    return {
      exitCode: 2,
      lines: [`Error: ${error.message}`, '', error.usage],
      json: { error: { code: 'USAGE_ERROR', message: error.message } },
    };
  }
  const classified = classifyError(error);
  if (!classified.unexpected) {
    const appError = classified.appError;
    const details = appError.details?.map((detail) => ({ ...detail, option: optionName(detail.path) }));
    const lines = details?.length
      ? details.map((detail) => `Error: ${detail.option ? `${detail.option}: ` : ''}${detail.message}`)
      : [`Error: ${appError.message}`];
    return {
      exitCode: 1,
      lines,
      json: { error: { code: appError.code, message: appError.message, ...(details ? { details } : {}) } },
    };
  }
  const raw = (error as { message?: unknown } | null)?.message;
  const message = typeof raw === 'string' ? raw : String(error);
  if (error instanceof ConfigError) {
    return { exitCode: 1, lines: [`Error: ${message}`], json: { error: { code: 'CONFIG_ERROR', message } } };
  }
  return {
    exitCode: 1,
    lines: [`Error: ${message}`],
    json: { error: { code: 'INTERNAL_ERROR', message } },
  };
}
