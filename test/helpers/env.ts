// Every test process: quiet logs and the test databases (see global-setup.ts).
process.env.NODE_ENV = 'test';
process.env.LOG_LEVEL ??= 'silent';
