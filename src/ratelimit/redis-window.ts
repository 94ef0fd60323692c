import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineScript, type ScriptCall } from './redis-script';
import { slidingWindowLua } from './sliding-window.lua';
import type { WindowResult } from './window';

const processTag = randomBytes(6).toString('hex');
let sequence = 0;

/** The sliding window shared by every API process: one sorted set per key, one script call per request. */
export class RedisSlidingWindow {
  private readonly run: ScriptCall;

  constructor(
    redis: Redis,
    private readonly options: { max: number; windowMs: number; keyPrefix: string },
  ) {
    this.run = defineScript(redis, 'commerceSlidingWindow', slidingWindowLua, 1);
  }

  async hit(keyId: string, nowMs: number): Promise<WindowResult> {
    const member = `${nowMs}:${processTag}:${(sequence++).toString(36)}`;
    const reply = (await this.run(
      this.options.keyPrefix + keyId,
      nowMs,
      this.options.windowMs,
      this.options.max,
      member,
    )) as [number, number, string];
    return { allowed: reply[0] === 1, count: reply[1], oldestMs: reply[2] === '' ? null : Number(reply[2]) };
  }
}
