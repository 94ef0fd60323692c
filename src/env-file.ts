import { existsSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths';

/**
 * Reads the settings file into process.env before anything reads the configuration: `.env` in the
 * project root, or the file ENV_FILE names. Variables already in the environment win over the file
 * (Node's own parser, process.loadEnvFile). Used by `npm start`, the api and worker roles, the admin
 * CLI, migrations and the seed. Answers the file read, or null when there is none.
 */
export function readEnvFile(env: NodeJS.ProcessEnv = process.env): string | null {
  const named = env.ENV_FILE;
  const file = named ? path.resolve(named) : path.join(projectRoot, '.env');
  if (!existsSync(file)) {
    if (named) throw new Error(`ENV_FILE names ${file}, which does not exist`);
    return null;
  }
  process.loadEnvFile(file);
  return file;
}
