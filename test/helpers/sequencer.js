const { readFileSync } = require('node:fs');
const path = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/**
 * Longest test files first, so that on CI's clean clone (no jest cache, 2 workers) no long file starts
 * last and stretches the run's wall time. The seconds per file come from test/helpers/durations.json (a whole
 * run on the 2-core machine; `node scripts/test-durations.mjs <jest --json output>` writes it); a file
 * not listed there falls back to jest's own cache, and a file known to neither goes first (as jest's
 * default order does with files it has no time for), the larger first.
 */
const ROOT = path.join(__dirname, '..', '..');
const listed = JSON.parse(readFileSync(path.join(__dirname, 'durations.json'), 'utf8'));

class LongestFirst extends Sequencer {
  sort(tests) {
    const seconds = (test) => {
      const known = listed[path.relative(ROOT, test.path).split(path.sep).join('/')];
      if (known !== undefined) return known;
      const cached = this.time(test);
      return cached === undefined ? undefined : cached / 1000;
    };
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    return [...tests]
      .map((test) => ({ test, seconds: seconds(test) }))
      .sort((a, b) => {
        if ((a.seconds === undefined) !== (b.seconds === undefined)) return a.seconds === undefined ? -1 : 1;
        if (a.seconds !== undefined && b.seconds !== undefined && a.seconds !== b.seconds)
          return b.seconds - a.seconds;
        return size(b.test) - size(a.test);
      })
      .map(({ test }) => test);
  }
}

module.exports = LongestFirst;
