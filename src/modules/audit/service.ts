import type { Prisma } from '../../../prisma/generated/client/client';
import { actorOf } from '../../access/principal';
import { type Context, storeIdOf } from '../../context';
import type { Db, Tx } from '../../db/client';
import { loadPage, type PageArgs, pageWindow, resolvePage } from '../../resources/pagination/page';

export interface AuditRecord {
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Prisma.InputJsonValue;
}

/** Who did what, when and from where; written in the same transaction as the change it records. */
export function recordAudit(db: Db | Tx, ctx: Context, record: AuditRecord) {
  return db.auditEntry.create({
    data: {
      storeId: storeIdOf(ctx),
      ...actorOf(ctx.principal),
      action: record.action,
      targetType: record.targetType,
      targetId: record.targetId,
      ip: ctx.clientAddress,
      details: record.details ?? {},
      createdAt: ctx.now(),
    },
  });
}

export const auditSortFields = ['createdAt'] as const;

export interface AuditFilter {
  action?: string | null;
  targetId?: string | null;
}

export async function listAuditEntries(
  ctx: Context,
  args: PageArgs<(typeof auditSortFields)[number]> & AuditFilter,
) {
  const where: Prisma.AuditEntryWhereInput = {
    storeId: storeIdOf(ctx),
    ...(args.action ? { action: args.action } : {}),
    ...(args.targetId ? { targetId: args.targetId } : {}),
  };
  const page = resolvePage(args, 'createdAt');
  return loadPage(
    page,
    ctx.prisma.auditEntry.findMany({ where, ...pageWindow(page) }),
    ctx.prisma.auditEntry.count({ where }),
  );
}
