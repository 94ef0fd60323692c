import type { RedisClient } from '../redis';

export type ScriptCall = (...args: (string | number)[]) => Promise<unknown>;

/**
 * A Lua script as a named command on the connection: ioredis sends EVALSHA, and the script body
 * once per socket when Redis does not know it yet. Names are namespaced because the connection is shared.
 */
export function defineScript(
  redis: RedisClient,
  name: string,
  lua: string,
  numberOfKeys?: number,
): ScriptCall {
  redis.defineCommand(name, numberOfKeys === undefined ? { lua } : { lua, numberOfKeys });
  const command = (redis as unknown as Record<string, ScriptCall>)[name]!;
  return (...args) => command.apply(redis, args);
}
