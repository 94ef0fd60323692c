import fc from 'fast-check';
import type { ExecutionResult } from 'graphql';
import { answerText, withDataText } from '../../src/read-cache/answer';

/**
 * A query's answer written with its data's JSON made once, for the data's tag (README "Conditional
 * requests"): the bytes must be JSON.stringify's, whatever the plugins did to the result after.
 */
const json = fc.jsonValue({ maxDepth: 4 });
const data = fc.dictionary(fc.string(), json, { maxKeys: 6 });

describe('an answer written with its data as text', () => {
  it("is JSON.stringify's bytes for any result and anything added to it", () => {
    fc.assert(
      fc.property(data, fc.dictionary(fc.string(), json, { maxKeys: 3 }), json, (d, extensions, extra) => {
        const result = withDataText({ data: d }, JSON.stringify(d));
        // As the cost plugins copy it: the copy keeps the function, later members come after.
        const answer = { ...result, extensions, extra, gone: undefined } as unknown as ExecutionResult & {
          stringify: (r: ExecutionResult) => string;
        };
        expect(answer.stringify(answer)).toBe(JSON.stringify(answer));
      }),
    );
  });

  it('writes data that was replaced (another object) afresh', () => {
    const result = withDataText({ data: { a: 1 } }, '{"a":1}');
    const replaced = { ...result, data: { b: 2 } };
    expect(answerText(replaced, result.data, '{"a":1}')).toBe('{"data":{"b":2}}');
    expect(answerText({}, result.data, '{"a":1}')).toBe('{}');
  });

  it('leaves a result without data as it is', () => {
    const result: ExecutionResult = { data: null };
    expect(withDataText(result, 'null')).toBe(result);
  });
});
