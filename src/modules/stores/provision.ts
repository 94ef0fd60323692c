import type { Plan, StaffRole } from '../../../prisma/generated/client/enums';
import { hashPassword } from '../../auth/password';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';

export interface NewStore {
  name: string;
  plan: Plan;
  ownerEmail: string;
  ownerName?: string;
  ownerPassword?: string;
  currency?: string;
  /** Refuse (409) when the owner's e-mail already owns a store: the demo seed's one store. */
  onlyStoreOfOwner?: boolean;
}

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Creates a store and its owner in one transaction. Used by the CLI and the seed. */
export async function createStore(db: Db, input: NewStore) {
  const email = normalizeEmail(input.ownerEmail);
  const passwordHash = input.ownerPassword ? await hashPassword(input.ownerPassword) : null;
  return db.$transaction(async (tx) => {
    if (input.onlyStoreOfOwner) {
      // Two processes seeding at once: the lock makes the second see the first's store.
      await tx.$executeRaw`select pg_advisory_xact_lock(hashtext(${`store-owner:${email}`}))`;
      if (await tx.staffUser.findFirst({ where: { email, role: 'OWNER' }, select: { id: true } })) {
        throw new AppError('CONFLICT', `${email} already owns a store`);
      }
    }
    const store = await tx.store.create({
      data: { name: input.name, plan: input.plan, currency: input.currency ?? 'USD', contactEmail: email },
    });
    const owner = await tx.staffUser.create({
      data: { storeId: store.id, email, name: input.ownerName ?? email, role: 'OWNER', passwordHash },
    });
    return tx.store.update({
      where: { id: store.id },
      data: { ownerId: owner.id },
      include: { owner: true },
    });
  });
}

export async function createStaffUser(
  db: Db,
  input: { storeId: string; email: string; name: string; role: StaffRole; password?: string },
) {
  const email = normalizeEmail(input.email);
  const existing = await db.staffUser.findUnique({
    where: { storeId_email: { storeId: input.storeId, email } },
    select: { id: true },
  });
  if (existing) throw new AppError('CONFLICT', `This store already has a staff member with e-mail ${email}`);
  return db.staffUser.create({
    data: {
      storeId: input.storeId,
      email,
      name: input.name,
      role: input.role,
      passwordHash: input.password ? await hashPassword(input.password) : null,
    },
  });
}
