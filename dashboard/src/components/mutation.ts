import { useState } from 'react';
import { type AnyVariables, type DocumentInput, useMutation } from 'urql';
import { type ApiError, fromCombined } from '../errors';

/**
 * A mutation with its error as the dashboard shows one (code, message, field messages); `run` answers
 * the data, or null when it failed (the error is then in `error`).
 */
export function useAction<Data, Variables extends AnyVariables>(document: DocumentInput<Data, Variables>) {
  const [state, execute] = useMutation<Data, Variables>(document);
  const [error, setError] = useState<ApiError | null>(null);
  return {
    busy: state.fetching,
    error,
    clear: () => setError(null),
    async run(variables: Variables): Promise<Data | null> {
      const result = await execute(variables, { additionalTypenames: ['Query'] });
      if (result.error) {
        setError(fromCombined(result.error));
        return null;
      }
      setError(null);
      return result.data ?? null;
    },
  };
}
