// `prisma dev` (Prisma's local database server) is the only code that loads this package; the project
// uses its own PostgreSQL (embedded or DATABASE_URL) and never runs `prisma dev`.
throw new Error(
  '@prisma/streams-local is not installed: `prisma dev` needs Node 22 and is not used by this project',
);
