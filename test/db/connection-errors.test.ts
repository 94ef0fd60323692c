import { Client } from 'pg';
import { connectDatabase } from '../../src/db/client';
import { describeDatabaseError } from '../../src/db/connection-errors';
import { adminUrl, databaseUrl } from '../helpers/databases';
import { freePort } from '../helpers/process';

/** The error a real connection attempt to `url` fails with (pg directly, or through Prisma's adapter). */
async function failureOf(url: string, through: 'pg' | 'prisma'): Promise<unknown> {
  if (through === 'pg') {
    const client = new Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
    } catch (error) {
      return error;
    }
  } else {
    const db = connectDatabase(url);
    try {
      await db.prisma.$queryRaw`select 1`;
    } catch (error) {
      return error;
    } finally {
      await db.close().catch(() => {});
    }
  }
  throw new Error(`connecting to ${url} did not fail`);
}

describe('a database that cannot be used is named in one line with the setting to change', () => {
  const host = new URL(adminUrl).host;

  it.each(['pg', 'prisma'] as const)('nothing listening on the port (%s)', async (through) => {
    const url = `postgresql://postgres@127.0.0.1:${await freePort()}/commerce`;
    expect(describeDatabaseError(await failureOf(url, through), url)).toMatch(
      /^No PostgreSQL answers at 127\.0\.0\.1:\d+: start it, or fix the host and port in DATABASE_URL$/,
    );
  });

  it.each(['pg', 'prisma'] as const)('a user the server does not know (%s)', async (through) => {
    const url = `postgresql://nobody_here:x@${host}/postgres`;
    expect(describeDatabaseError(await failureOf(url, through), url)).toBe(
      `The database at ${host} refused the login of user "nobody_here": fix the user and password in DATABASE_URL`,
    );
  });

  it.each(['pg', 'prisma'] as const)('a database that does not exist (%s)', async (through) => {
    const url = databaseUrl('commerce_no_such_db');
    expect(describeDatabaseError(await failureOf(url, through), url)).toBe(
      `The database "commerce_no_such_db" does not exist at ${host}: create it (createdb commerce_no_such_db), or fix DATABASE_URL`,
    );
  });

  it('the embedded database, not running, says to start the service', async () => {
    const url = `postgresql://postgres:pw@127.0.0.1:${await freePort()}/commerce`;
    expect(describeDatabaseError(await failureOf(url, 'pg'), url, '/srv/data')).toBe(
      'The embedded database under /srv/data is not running: start the service (`npm start`) in another terminal first, or set DATABASE_URL',
    );
  });

  it('leaves other errors to be reported as they are, and never prints the password', () => {
    expect(describeDatabaseError(new Error('syntax error'), adminUrl)).toBeNull();
    const url = 'postgresql://u:secret@db.internal:6543/shop';
    const line = describeDatabaseError(Object.assign(new Error('x'), { code: '28P01' }), url);
    expect(line).toBe(
      'The database at db.internal:6543 refused the login of user "u": fix the user and password in DATABASE_URL',
    );
    expect(line).not.toContain('secret');
    // pg's words when the server asks for a password the URL does not have (seen from the embedded one)
    const scram = new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string');
    expect(describeDatabaseError(scram, 'postgresql://postgres@127.0.0.1:5544/commerce')).toBe(
      'The database at 127.0.0.1:5544 asks user "postgres" for a password and DATABASE_URL gives none: add it (postgresql://user:password@host/db)',
    );
  });
});
