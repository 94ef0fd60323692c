import type { StaffRole } from '../../prisma/generated/client/enums';
import { createStaffUser } from '../../src/modules/stores/provision';
import type { TestServer } from './server';

let counter = 0;

/** A staff member of the store with the role, signed in through POST /auth/login: their session token. */
export async function signInAs(server: TestServer, storeId: string, role: StaffRole) {
  const email = `${role.toLowerCase()}-${counter++}-${Date.now()}@session.test`;
  const password = 'correct horse';
  const staff = await createStaffUser(server.prisma, { storeId, email, name: role, role, password });
  const res = await server.send('POST', '/api/v1/auth/login', { email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const { data } = await res.json();
  return { token: data.token as string, staffId: staff.id };
}
