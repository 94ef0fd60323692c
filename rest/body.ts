import express, { type Request, type Response } from 'express';
import { AppError } from '../src/errors';
import { assertJsonDepth } from '../src/http/json-depth';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads a JSON body into req.body: the one reader of every door (REST, /graphql, /mcp). A body that
 * is not `application/json` is 415, malformed JSON 400 INVALID_JSON, one nested deeper than
 * MAX_JSON_DEPTH 400 JSON_TOO_DEEP, one over the limit 413; a request without a body leaves
 * req.body undefined.
 */
export function readJsonBody(limitBytes: number) {
  // Bodies in another charset or content coding: body-parser decodes the text, parseJson reads it.
  const decoder = express.text({ limit: limitBytes, type: () => true });
  return (req: Request, res: Response): Promise<void> => {
    if (!hasBody(req)) {
      req.body = undefined;
      return Promise.resolve();
    }
    if (!JSON_TYPE.test(req.get('content-type') ?? '')) {
      return Promise.reject(
        new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be application/json'),
      );
    }
    const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1];
    if (isPlainUtf8(req, charset)) return readUtf8Json(req, limitBytes);
    // JSON is written in a UTF (RFC 7159 8.1), as body-parser's JSON reader required.
    if (charset !== undefined && !/^utf-/i.test(charset)) return Promise.reject(unsupportedCoding());
    return new Promise((resolve, reject) => {
      decoder(req, res, (error?: unknown) => {
        if (error) return reject(bodyError(error, limitBytes));
        try {
          req.body = parseJson(typeof req.body === 'string' ? req.body : '');
          resolve();
        } catch (parseError) {
          reject(parseError);
        }
      });
    });
  };
}

/**
 * A body's text as JSON: `{}` when empty (as body-parser answers), 400 JSON_TOO_DEEP past
 * MAX_JSON_DEPTH — counted in the text, before JSON.parse builds anything to walk — and 400
 * INVALID_JSON when it is not JSON.
 */
function parseJson(text: string): unknown {
  if (text === '') return {};
  assertJsonDepth(text, 'The request body');
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('INVALID_JSON', 'The request body is not valid JSON');
  }
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** No content coding and UTF-8 (stated or implied): the common case, read without body-parser. */
function isPlainUtf8(req: Request, charset: string | undefined): boolean {
  const coding = req.headers['content-encoding'];
  if (coding !== undefined && coding.toLowerCase() !== 'identity') return false;
  return charset === undefined || /^utf-8$/i.test(charset);
}

const unsupportedCoding = () =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body charset or encoding');

/**
 * The same answers as body-parser gives for a plain UTF-8 body: 413 past the limit, 400 for bad
 * JSON, `{}` for an empty body. A request whose client went away before its body ended settles too.
 */
function readUtf8Json(req: Request, limitBytes: number): Promise<void> {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds ${limitBytes} bytes`);
  const aborted = () => new AppError('INVALID_JSON', 'The request body was not received whole');
  if (Number(req.headers['content-length']) > limitBytes) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  if (req.destroyed || req.readableEnded) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: AppError) => {
      req.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) chunks.push(chunk);
      else {
        req.resume();
        settle(tooLarge());
      }
    };
    const onEnd = () => {
      const read = Buffer.concat(chunks, size).toString('utf8');
      try {
        req.body = parseJson(read.charCodeAt(0) === 0xfeff ? read.slice(1) : read);
        settle();
      } catch (error) {
        settle(error as AppError);
      }
    };
    const onClose = () => settle(aborted());
    req.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
  });
}

function bodyError(error: unknown, limitBytes: number): AppError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') {
    return new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds ${limitBytes} bytes`);
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') return unsupportedCoding();
  return new AppError('INVALID_JSON', 'The request body is not valid JSON');
}
