import { z } from 'zod';
import { StaffRole } from '../../prisma/generated/client/enums';
import { notFound } from '../errors';
import { createStaffUser } from '../modules/stores/provision';
import { parseInput } from '../validation';
import { type Command, command, stringOption } from './args';
import { passwordInput } from './store-commands';

const roles = Object.values(StaffRole) as [StaffRole, ...StaffRole[]];

const staffCreateInput = z.object({
  email: z.email('must be an e-mail address'),
  name: z.string().trim().min(1, 'is required').max(100, 'at most 100 characters'),
  role: z.preprocess(
    (value) => (typeof value === 'string' ? value.toUpperCase() : value),
    z.enum(roles, { error: `must be one of ${roles.join(', ')}` }),
  ),
  password: passwordInput,
});

export const staffCommands: Command[] = [
  command({
    name: 'staff create',
    summary: 'Adds a staff user, who signs in to the dashboard with e-mail and password.',
    options: {
      store: { type: 'string', value: '<storeId>', description: 'The store (str_…)' },
      email: { type: 'string', value: '<email>', description: 'Sign-in e-mail, unique in the store' },
      name: { type: 'string', value: '<name>', description: 'Display name' },
      role: { type: 'string', value: '<role>', description: `One of ${roles.join(', ')}` },
      password: { type: 'string', value: '<password>', description: 'At least 8 characters' },
    },
    required: ['store', 'email', 'name', 'role', 'password'],
    notes: ['OWNER adds a co-owner; the store’s primary owner (the one `store create` made) stays as it is.'],
    async run({ db }, input) {
      const fields = parseInput(staffCreateInput, {
        email: stringOption(input, 'email'),
        name: stringOption(input, 'name'),
        role: stringOption(input, 'role'),
        password: input.values.password,
      });
      const storeId = stringOption(input, 'store') as string;
      if (!(await db.store.findUnique({ where: { id: storeId }, select: { id: true } })))
        throw notFound('Store');
      const user = await createStaffUser(db, { storeId, ...fields });
      const staffUser = {
        id: user.id,
        storeId: user.storeId,
        email: user.email,
        name: user.name,
        role: user.role,
        createdAt: user.createdAt,
      };
      return {
        json: { staffUser },
        text: [`Created ${user.role} ${user.id} ${user.email} ("${user.name}") in store ${user.storeId}`],
      };
    },
  }),
];
