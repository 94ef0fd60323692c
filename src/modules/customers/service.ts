import type { Customer, Prisma } from '../../../prisma/generated/client/client';
import { type Context, storeIdOf } from '../../context';
import type { Tx } from '../../db/client';
import { AppError, notFound } from '../../errors';
import { emitEvent } from '../../events/outbox';
import { storeRows } from '../../resources/store-resource/rows';
import { writeStore } from '../../resources/store-writes';
import { parseInput } from '../../validation';
import { customerUpdateInput, newCustomerInput } from './input';
import { type CustomerStats, customerStatsFor, noStats } from './stats';

export const customerSortFields = ['createdAt', 'email', 'lastName'] as const;
export type CustomerSortField = (typeof customerSortFields)[number];

export interface CustomerFilter {
  q?: string | null;
}

const searchedFields = ['email', 'firstName', 'lastName'] as const;

/** `q` is split into words; every word must match the e-mail, first or last name ("ann lee" finds Ann Lee). */
function customerWhere(storeId: string, filter: CustomerFilter): Prisma.CustomerWhereInput {
  const words = (filter.q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 10);
  return {
    storeId,
    ...(words.length > 0
      ? {
          AND: words.map((word) => ({
            OR: searchedFields.map((field) => ({ [field]: { contains: word, mode: 'insensitive' } })),
          })),
        }
      : {}),
  };
}

/** The store's customers: a page, a Relay connection's rows and count, one by id. */
export const customerRows = storeRows<Customer, CustomerFilter, CustomerSortField>({
  name: 'Customer',
  model: (ctx) => ctx.prisma.customer,
  where: customerWhere,
  defaultSort: 'createdAt',
});

/** The customer as REST, GraphQL and event payloads show it. */
const customerPayload = (customer: Customer, stats: CustomerStats) => ({
  id: customer.id,
  email: customer.email,
  firstName: customer.firstName,
  lastName: customer.lastName,
  phone: customer.phone,
  acceptsMarketing: customer.acceptsMarketing,
  orderCount: stats.orderCount,
  totalSpentAmount: stats.totalSpentAmount,
  createdAt: customer.createdAt.toISOString(),
  updatedAt: customer.updatedAt.toISOString(),
});

/** A clear 409 first; the unique index (storeId, email) still settles a concurrent write (P2002 → 409). */
async function assertEmailFree(tx: Tx, storeId: string, email: string, selfId?: string) {
  const clash = await tx.customer.findFirst({
    where: { storeId, email, ...(selfId ? { id: { not: selfId } } : {}) },
    select: { id: true },
  });
  if (clash) {
    throw new AppError('CONFLICT', `A customer with e-mail ${email} already exists`, [
      { path: 'input.email', message: 'is already used by another customer of the store' },
    ]);
  }
}

export async function createCustomer(ctx: Context, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(newCustomerInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    await assertEmailFree(tx, storeId, fields.email);
    const customer = await tx.customer.create({
      data: { ...fields, storeId, createdAt: ctx.now(), updatedAt: ctx.now() },
    });
    await emitEvent(tx, {
      storeId,
      type: 'customer.created',
      data: { object: customerPayload(customer, noStats) },
      now: ctx.now(),
    });
    return customer;
  });
}

export async function updateCustomer(ctx: Context, id: string, input: unknown) {
  const storeId = storeIdOf(ctx);
  const fields = parseInput(customerUpdateInput, input, 'input');
  return writeStore(ctx, storeId, async (tx) => {
    const existing = await tx.customer.findFirst({ where: { id, storeId }, select: { id: true } });
    if (!existing) throw notFound('Customer');
    if (fields.email !== undefined) await assertEmailFree(tx, storeId, fields.email, id);
    const customer = await tx.customer.update({ where: { id }, data: { ...fields, updatedAt: ctx.now() } });
    const stats = (await customerStatsFor(tx, storeId, [id])).get(id) ?? noStats;
    await emitEvent(tx, {
      storeId,
      type: 'customer.updated',
      data: { object: customerPayload(customer, stats) },
      now: ctx.now(),
    });
    return customer;
  });
}
