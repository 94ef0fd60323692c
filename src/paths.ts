import { existsSync } from 'node:fs';
import path from 'node:path';

/** The directory holding package.json, found upwards, so paths hold from src/ (tsx) and dist/ alike. */
function findProjectRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

export const projectRoot = findProjectRoot(__dirname);
