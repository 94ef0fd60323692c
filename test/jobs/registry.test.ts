import { readdirSync } from 'node:fs';
import path from 'node:path';
import { taskNames } from '../../src/task-catalog';

/** A task's name is its file's: a file added, renamed or removed in jobs/tasks/ without the catalog fails here. */
describe('the job registry', () => {
  it('has a file in jobs/tasks/ for each task of the catalog, and no other', () => {
    const files = readdirSync(path.join(__dirname, '..', '..', 'jobs', 'tasks'));
    expect(files.map((file) => file.replace(/\.ts$/, '')).sort()).toEqual([...taskNames].sort());
  });
});
