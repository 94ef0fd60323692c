import { dropTestDatabases } from './databases';

export default async function globalTeardown() {
  await dropTestDatabases('this run');
}
