import { builder } from '../../builder';
import { requireScope } from '../../field-extensions';
import { pageArgs, pageType } from '../../resources/pagination/schema';
import { auditSortFields, listAuditEntries } from './service';

const AuditEntryRef = builder.prismaObject('AuditEntry', {
  description: 'One recorded action: who (an API key or a staff user), what, when and from which IP',
  fields: (t) => ({
    id: t.exposeID('id'),
    actorType: t.exposeString('actorType'),
    actorId: t.exposeString('actorId', { nullable: true }),
    action: t.exposeString('action'),
    targetType: t.exposeString('targetType', { nullable: true }),
    targetId: t.exposeString('targetId', { nullable: true }),
    ip: t.exposeString('ip', { nullable: true }),
    details: t.expose('details', { type: 'JSON' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const AuditSortFieldEnum = builder.enumType('AuditSortField', { values: auditSortFields });

builder.queryField('auditLog', (t) =>
  t.field({
    type: pageType('AuditEntry', AuditEntryRef),
    description: 'The audit log of the store, newest first by default',
    authScopes: requireScope('API_KEYS', 'READ'),
    args: { ...pageArgs(t.arg, AuditSortFieldEnum), action: t.arg.string(), targetId: t.arg.string() },
    resolve: (_root, args, ctx) => listAuditEntries(ctx, args),
  }),
);
