import type { Redis } from 'ioredis';
import type { EngineDetail } from '../../contract';
import { hostKey, HOSTS_KEY } from './names';

/** A worker host says it is alive this often... */
export const HEARTBEAT_MS = 5_000;
/** ...and is forgotten when it has not for this long (it died, or lost Redis). */
export const HOST_TTL_MS = 15_000;

/** What a worker host advertises: its name and the engines it has, with their voices. */
export interface HostAdvert {
  id: string;
  name: string;
  engines: EngineDetail[];
  /** ISO time of the heartbeat that wrote this. */
  seenAt: string;
}

/**
 * Worker hosts in Redis: each host's advert is a key that expires unless its heartbeat renews it,
 * and a sorted set of host ids by heartbeat lets the gateway list them without scanning keys.
 */
export async function advertise(client: Redis, advert: HostAdvert): Promise<void> {
  await client.multi().set(hostKey(advert.id), JSON.stringify(advert), 'PX', HOST_TTL_MS).zadd(HOSTS_KEY, Date.now(), advert.id).exec();
}

/** A host that stops cleanly leaves at once rather than when its advert expires. */
export async function withdrawAdvert(client: Redis, hostId: string): Promise<void> {
  await client.multi().del(hostKey(hostId)).zrem(HOSTS_KEY, hostId).exec();
}

/** The hosts alive now; those silent for HOST_TTL_MS are dropped from the set. */
export async function liveHosts(client: Redis): Promise<HostAdvert[]> {
  await client.zremrangebyscore(HOSTS_KEY, '-inf', String(Date.now() - HOST_TTL_MS));
  const ids = await client.zrange(HOSTS_KEY, '0', '-1');
  if (ids.length === 0) return [];
  const adverts = await client.mget(...ids.map(hostKey));
  return adverts.flatMap((json) => (json ? [JSON.parse(json) as HostAdvert] : []));
}
