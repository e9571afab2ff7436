import { Value } from 'typebox/value';
import {
  Job,
  JOB_EVENT_TYPES,
  LibraryVoice,
  VOICE_EVENT_TYPES,
  type JobEventType,
  type VoiceEvent,
  type VoiceEventType,
} from '../contract';
import { GatewayError } from './errors';
import { readEventStream } from './sse';

export interface JobEvent {
  type: JobEventType;
  job: Job;
  /** The event's id (the job's revision): the Last-Event-ID to resume after. */
  id?: string;
}

export interface FollowOptions {
  /** One job's events; every job's without it. */
  jobId?: string;
  /** Every job's: the gateway first sends each job changed after that event. */
  lastEventId?: string;
  signal: AbortSignal;
  /** Runs once the stream is accepted, so callers can refresh what they missed. */
  onOpen?: () => void;
  onEvent: (event: JobEvent) => void;
  /** Voice installs, on the stream of all events. */
  onVoiceEvent?: (event: VoiceEvent) => void;
}

/** Reads job (and voice install) events from an accepted answer until it ends; events outside the contract are skipped. */
export async function readJobEvents(response: Response, options: FollowOptions): Promise<void> {
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    throw new GatewayError('The gateway did not answer with an event stream.');
  }
  options.onOpen?.();
  await readEventStream(response.body, (message) => {
    const isJob = (JOB_EVENT_TYPES as readonly string[]).includes(message.event);
    if (!isJob && !(VOICE_EVENT_TYPES as readonly string[]).includes(message.event)) return;
    let data: unknown;
    try {
      data = JSON.parse(message.data);
    } catch {
      return; // one malformed event should not end the stream
    }
    if (isJob && Value.Check(Job, data)) options.onEvent({ type: message.event as JobEventType, job: data, id: message.id });
    else if (!isJob && Value.Check(LibraryVoice, data)) options.onVoiceEvent?.({ type: message.event as VoiceEventType, voice: data });
  });
}
