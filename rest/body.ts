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
  return charset === undefined || /^utf-8$/i.test(charset);
}

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
      const text = read.charCodeAt(0) === 0xfeff ? read.slice(1) : read;
      try {
        req.body = text === '' ? {} : JSON.parse(text);
        settle();
      } catch {
        settle(new AppError('INVALID_JSON', 'The request body is not valid JSON'));
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
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body charset or encoding');
  }
  return new AppError('INVALID_JSON', 'The request body is not valid JSON');
}
