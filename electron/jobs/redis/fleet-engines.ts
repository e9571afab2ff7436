import { Redis } from 'ioredis';
import type { EngineDetail, EngineSummary, Voice } from '../../contract';
import { liveHosts, type HostAdvert } from './hosts';

/** /engines reads the adverts at most this often. */
const CACHE_MS = 1_000;

/**
 * The engines as a gateway with worker hosts offers them: its own (which answer inline requests)
 * merged with those the live hosts advertise (which run jobs), each engine and voice saying which
 * hosts serve it.
 */
export class FleetEngines {
  private readonly client: Redis;
  private cached: { at: number; hosts: Promise<HostAdvert[]> } | undefined;

  constructor(url: string) {
    this.client = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
    this.client.on('error', () => undefined); // an unreachable Redis is reported by the chunk queue
  }

  async summaries(local: EngineSummary[]): Promise<EngineSummary[]> {
    const hosts = await this.hosts();
    const ids = [...new Set([...local.map((e) => e.id), ...hosts.flatMap((h) => h.engines.map((e) => e.id))])];
    return ids.map(
      (id) =>
        merge(
          id,
          local.find((e) => e.id === id),
          hosts,
        ).summary,
    );
  }

  async detail(id: string, local: EngineDetail | undefined): Promise<EngineDetail | undefined> {
    const hosts = await this.hosts();
    if (!local && !hosts.some((h) => h.engines.some((e) => e.id === id))) return undefined;
    const { summary, voices } = merge(id, local, hosts);
    return { ...summary, voices: voices ?? (local as EngineDetail).voices };
  }

  /** Whether a live worker host has the voice; a cached "no" is checked again, as a host may have just started. */
  async serves(voice: string): Promise<boolean> {
    const has = (hosts: HostAdvert[]) => hosts.some((host) => host.engines.some((engine) => engine.voices.some((v) => v.id === voice)));
    return has(await this.hosts()) || has(await this.hosts({ fresh: true }));
  }

  close(): void {
    this.client.disconnect();
  }

  private hosts({ fresh = false } = {}): Promise<HostAdvert[]> {
    if (fresh || !this.cached || Date.now() - this.cached.at > CACHE_MS) {
      const hosts = liveHosts(this.client).catch((error: Error) => {
        console.warn(`Orator could not read the worker hosts from Redis: ${error.message}`);
        return [];
      });
      this.cached = { at: Date.now(), hosts };
    }
    return this.cached.hosts;
  }
}

/** One engine over the gateway and the hosts: the hosts' voices (their union) when any host has it, else the gateway's own. */
function merge(id: string, local: EngineSummary | undefined, hosts: HostAdvert[]): { summary: EngineSummary; voices: Voice[] | undefined } {
  const serving = hosts.flatMap((host) => host.engines.filter((e) => e.id === id).map((engine) => ({ host: host.name, engine })));
  if (serving.length === 0) return { summary: { ...summaryOf(local!), hosts: [] }, voices: undefined };
  const voices = new Map<string, Voice>();
  for (const { host, engine } of serving) {
    for (const voice of engine.voices) {
      const known = voices.get(voice.id) ?? { ...voice, hosts: [] };
      known.hosts = [...new Set([...known.hosts!, host])].sort();
      voices.set(voice.id, known);
    }
  }
  const base = summaryOf(serving[0]!.engine);
  const all = [...voices.values()];
  const defaultVoice = local?.defaultVoice && voices.has(local.defaultVoice) ? local.defaultVoice : base.defaultVoice;
  const summary = {
    ...base,
    voiceCount: all.length,
    languages: [...new Set(all.map((v) => v.language))].sort(),
    defaultVoice,
    hosts: [...new Set(serving.map((s) => s.host))].sort(),
  };
  return { summary, voices: all };
}

/** An engine without its voices (a detail is a summary with voices). */
function summaryOf(engine: EngineSummary | EngineDetail): EngineSummary {
  const { voices, ...summary } = engine as EngineDetail;
  void voices;
  return summary;
}
