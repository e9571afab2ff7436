import {
  COMPARE_SESSIONS_PATH,
  CompareSession,
  CompareSessionList,
  compareSessionPath,
  CompareTake,
  compareTakeAudioPath,
  compareTakePath,
  type CompareSessionCreate,
  type CompareSessionPatch,
  type CompareTakePatch,
} from './contract';
import { checked, jsonBody, type OratorClient } from './client';

/** The compare sessions' routes (docs/api.md#compare-sessions), through the client's key and checks. */
export class CompareClient {
  constructor(private readonly client: OratorClient) {}

  async list() {
    return checked<CompareSessionList>(CompareSessionList, await this.client.json(COMPARE_SESSIONS_PATH), 'session list');
  }

  async get(id: string) {
    return checked<CompareSession>(CompareSession, await this.client.json(compareSessionPath(id)), 'session');
  }

  async create(body: CompareSessionCreate) {
    return this.session(COMPARE_SESSIONS_PATH, 'POST', body);
  }

  async patch(id: string, body: CompareSessionPatch) {
    return this.session(compareSessionPath(id), 'PATCH', body);
  }

  async duplicate(id: string, name?: string) {
    return this.session(`${compareSessionPath(id)}/duplicate`, 'POST', name ? { name } : {});
  }

  /** Queues a job for each take without audio. */
  async synthesize(id: string) {
    return this.session(`${compareSessionPath(id)}/synthesize`, 'POST');
  }

  async remove(id: string): Promise<void> {
    await this.client.send(compareSessionPath(id), { method: 'DELETE' });
  }

  async patchTake(id: string, take: string, body: CompareTakePatch) {
    const response = await this.client.send(compareTakePath(id, take), { method: 'PATCH', body: JSON.stringify(body) });
    return checked<CompareTake>(CompareTake, await jsonBody(response), 'take');
  }

  async takeAudio(id: string, take: string, signal?: AbortSignal): Promise<Blob> {
    return (await this.client.send(compareTakeAudioPath(id, take), { signal })).blob();
  }

  private async session(path: string, method: string, body?: object) {
    const response = await this.client.send(path, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
    return checked<CompareSession>(CompareSession, await jsonBody(response), 'session');
  }
}
