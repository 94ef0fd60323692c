import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { inTurn } from '../../src/http/in-turn';
import { listen } from '../../src/http/server';

/**
 * src/http/in-turn.ts: middleware mounted as one layer answers as it did mounted one by one — run in
 * order, each handing over with `next()`; an error (passed or thrown) skips the rest to the error
 * handler; an answer written by one ends the turn; the layer's path still applies.
 */
let server: Server;
let base: string;

const mark =
  (name: string) =>
  (_req: Request, res: Response, next: NextFunction): void => {
    res.append('X-Ran', name);
    next();
  };

beforeAll(async () => {
  const app = express();
  app.use('/in-order', inTurn(mark('first'), mark('second'), mark('third')));
  app.use(
    '/passed-error',
    inTurn(mark('first'), (_req, _res, next) => next(new Error('passed')), mark('never')),
  );
  app.use(
    '/thrown-error',
    inTurn(
      mark('first'),
      () => {
        throw new Error('thrown');
      },
      mark('never'),
    ),
  );
  app.use(
    '/answered',
    inTurn(
      mark('first'),
      (_req, res) => {
        res.status(204).end();
      },
      mark('never'),
    ),
  );
  app.use((req, res) => {
    res.json({ path: req.path, baseUrl: req.baseUrl, ran: res.getHeader('X-Ran') ?? null });
  });
  app.use((error: Error, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ error: error.message, ran: res.getHeader('X-Ran') ?? null });
  });
  server = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('runs the middleware in order, then hands over to the next layer', async () => {
  const response = await fetch(`${base}/in-order/x`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({
    path: '/in-order/x',
    baseUrl: '',
    ran: ['first', 'second', 'third'],
  });
});

it('skips the rest on an error passed to next, as express does', async () => {
  const response = await fetch(`${base}/passed-error`);
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({ error: 'passed', ran: 'first' });
});

it('skips the rest on an error thrown, as express does', async () => {
  const response = await fetch(`${base}/thrown-error`);
  expect(response.status).toBe(500);
  expect(await response.json()).toEqual({ error: 'thrown', ran: 'first' });
});

it('ends the turn when one of them answers', async () => {
  const response = await fetch(`${base}/answered`);
  expect(response.status).toBe(204);
  expect(response.headers.get('x-ran')).toBe('first');
});

it('runs nothing of the layer off its path', async () => {
  const response = await fetch(`${base}/elsewhere`);
  expect(await response.json()).toEqual({ path: '/elsewhere', baseUrl: '', ran: null });
});
