import express, { type Request, type Response } from 'express';
import { AppError } from '../src/errors';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads a JSON body into req.body. A body that is not `application/json` is 415, malformed JSON
 * 400 INVALID_JSON, one over the limit 413; a request without a body leaves req.body undefined.
 */
export function readJsonBody(limitBytes: number) {
  const parser = express.json({ limit: limitBytes, strict: false, type: () => true });
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
    if (isPlainUtf8(req)) return readUtf8Json(req, limitBytes);
    return new Promise((resolve, reject) => {
      parser(req, res, (error?: unknown) => (error ? reject(bodyError(error, limitBytes)) : resolve()));
    });
  };
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** No content coding and UTF-8 (stated or implied): the common case, read without body-parser. */
function isPlainUtf8(req: Request): boolean {
  const coding = req.headers['content-encoding'];
  if (coding !== undefined && coding.toLowerCase() !== 'identity') return false;
  const charset = CHARSET.exec(req.headers['content-type'] ?? '')?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}

/** The same answers as body-parser gives for a plain UTF-8 body: 413 past the limit, 400 for bad JSON. */
function readUtf8Json(req: Request, limitBytes: number): Promise<void> {
  const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds ${limitBytes} bytes`);
  const declared = Number(req.headers['content-length']);
  if (declared > limitBytes) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limitBytes) return void chunks.push(chunk);
      req.off('data', onData);
      req.resume();
      reject(tooLarge());
    };
    req.on('data', onData);
    req.once('error', () => reject(new AppError('INVALID_JSON', 'The request body could not be read')));
    req.once('end', () => {
      if (size > limitBytes) return;
      const text = (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8');
      try {
        req.body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
        resolve();
      } catch {
        reject(new AppError('INVALID_JSON', 'The request body is not valid JSON'));
      }
    });
  });
}

function bodyError(error: unknown, limitBytes: number): AppError {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') {
    return new AppError('PAYLOAD_TOO_LARGE', `The request body exceeds ${limitBytes} bytes`);
  }
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body charset or encoding');
  }
  return new AppError('INVALID_JSON', 'The request body is not valid JSON');
}
