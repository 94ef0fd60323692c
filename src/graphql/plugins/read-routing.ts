import type { Plugin } from '@envelop/core';
import type { ExecutionResult } from 'graphql';
import { getOperationAST } from 'graphql';
import { classifyError } from '../../errors';
import type { ReadRouting } from '../../replica/read-routing';
import type { PipelineContext } from '../pipeline-context';

/**
 * A query's resolvers read from where the read routing says (src/replica/read-routing.ts): the
 * context's `prisma` becomes the replica's client for it. Mutations keep the primary's, for their
 * writes and every read in or around them. A query the replica failed for want of a connection runs
 * again on the primary (a query writes nothing), so a replica going away is never an error.
 */
export function useReadRouting(routing: ReadRouting): Plugin<PipelineContext> {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const ctx = args.contextValue;
      const storeId = ctx.principal?.storeId;
      if (!storeId || getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      setExecuteFn(async (executeArgs) => {
        const reader = await routing.readerFor(storeId);
        if (reader === routing.primary) return executeFn(executeArgs);
        // An own field of this context only (the services, on the prototype, keep the primary's).
        ctx.prisma = reader;
        const result = (await executeFn(executeArgs)) as ExecutionResult;
        const lost = result.errors?.find(
          (error) => classifyError(error.originalError ?? error).appError.code === 'SERVICE_UNAVAILABLE',
        );
        if (!lost) return result;
        routing.replicaFailed(lost.originalError ?? lost);
        ctx.prisma = routing.primary;
        return executeFn(executeArgs);
      });
    },
  };
}
