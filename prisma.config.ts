import { defineConfig } from 'prisma/config';

// Prisma's CLI is used only to generate the client offline; migrations are applied by
// `npm run db:migrate` (src/db/migrate.ts), which keeps Prisma's _prisma_migrations format.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/commerce' },
});
