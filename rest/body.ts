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
    return new Promise((resolve, reject) => {
      parser(req, res, (error?: unknown) => (error ? reject(bodyError(error, limitBytes)) : resolve()));
    });
  };
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
