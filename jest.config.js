/** Tests run against the real PostgreSQL and Redis (see test/helpers and the README). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Scale-out tests (several real API or worker processes; the whole shape with its own PostgreSQL
  // pair, PgBouncer and Redis Cluster) run as `npm run test:scale` (README "Test"), outside CI's time.
  testPathIgnorePatterns: ['/node_modules/', '/test/scale/'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } } }] },
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  setupFiles: ['<rootDir>/test/helpers/env.ts'],
  // Longest files first (test/helpers/durations.json): README "Test order".
  testSequencer: '<rootDir>/test/helpers/sequencer.js',
  testTimeout: 30000,
  maxWorkers: 2,
};
