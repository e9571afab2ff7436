import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import path from 'node:path';
import { Readable } from 'node:stream';
import { API, AUDIO_MEDIA, jobAudioFileName, SUBTITLE_MEDIA, type JobEvent, type VoiceEvent } from '../../contract';
import type { JobEventFeed } from '../../services/job-events';
import type { JobRerenders } from '../../services/job-rerender';
import type { JobService } from '../../services/jobs';
import { presentedKey } from '../plugins/auth';
import { serve } from '../serve-route';
import type { GatewaySlots } from '../slots';
import { streamEvents, type EventFeed, type SseEvent } from '../sse';
import { holdForAnswer, holding } from './hold';
import { contentDisposition, sendJobAccepted } from './replies';

export interface JobRouteOptions {
  jobs: JobService;
  rerenders: JobRerenders;
  hasKey: (request: FastifyRequest) => boolean;
  /** Voice installs, carried by the stream of all events beside the jobs'. */
  voiceEvents?: (listener: (event: VoiceEvent) => void) => () => void;
  slots: GatewaySlots;
}

/** A job feed as stream events, each with the job's revision as its id, ending where the feed says. */
function jobEvents(feed: JobEventFeed): EventFeed {
  const toSse = (event: JobEvent): SseEvent => ({ type: event.type, data: event.job, id: event.job.revision, last: feed.isLast(event) });
  return { backlog: pages(feed.backlog, toSse), subscribe: (listener) => feed.subscribe((event) => listener(toSse(event))) };
}

/** Each page of `backlog` mapped, read only when asked for (as the feed reads it). */
function* pages<T, U>(backlog: Iterable<T[]>, map: (item: T) => U): Generator<U[]> {
  for (const page of backlog) yield page.map(map);
}

/** A finished job said again with the lexicon as it is now: what it would cost, and the new job. */
function rerenderRoutes(app: FastifyInstance, rerenders: JobRerenders): void {
  serve(app, API.getJobRerenderPlan, async (request) => rerenders.plan(request.params.id));
  serve(app, API.rerenderJob, async (request, reply) => {
    const { job, sentences, reused } = await rerenders.rerender(request.params.id);
    return sendJobAccepted(reply, job.job_id, { sentences, reused });
  });
}

export const jobRoutes: FastifyPluginAsync<JobRouteOptions> = async (app, { jobs, rerenders, hasKey, voiceEvents, slots }) => {
  /** A stream holds one of its key's slots until it ends (the auth hook has checked the key). */
  const openStream = (request: FastifyRequest, reply: FastifyReply, feed: EventFeed) => {
    const release = slots.eventStreams.take(presentedKey(request)!);
    streamEvents(request, reply, { ...feed, authorized: () => hasKey(request), onEnd: release });
  };
  /** Every job's events and, with a voice library, its installs'. */
  const allEvents = (after?: number): EventFeed => {
    const feed = jobEvents(jobs.events(after));
    if (!voiceEvents) return feed;
    return {
      backlog: feed.backlog,
      subscribe: (listener) => {
        const stopJobs = feed.subscribe(listener);
        const stopVoices = voiceEvents((event) => listener({ type: event.type, data: event.voice }));
        return () => {
          stopJobs();
          stopVoices();
        };
      },
    };
  };

  serve(app, API.listJobs, async (request) => jobs.list(request.query));

  serve(app, API.getJob, async (request, reply) => {
    const job = await jobs.get(request.params.id);
    if (job.status === 'running') reply.header('retry-after', '1');
    return job;
  });

  serve(app, API.renameJob, async (request) => jobs.rename(request.params.id, request.body.title));

  serve(app, API.editJobSentence, async (request) =>
    holding(slots.sentenceEdits, request, () => jobs.editSentence(request.params.id, request.params.n, request.body.text)),
  );

  serve(app, API.deleteJob, async (request, reply) => {
    const job = await jobs.cancelOrDelete(request.params.id);
    return job ? job : reply.code(204).send(null);
  });

  serve(app, API.retryJob, async (request, reply) => sendJobAccepted(reply, (await jobs.retry(request.params.id)).job_id));

  rerenderRoutes(app, rerenders);

  serve(app, API.getJobAudio, async (request, reply) => {
    const { id } = request.params;
    const audio = await jobs.audio(id, request.query);
    reply
      .type(AUDIO_MEDIA[audio.format].contentType)
      .header('content-disposition', contentDisposition('attachment', jobAudioFileName(id, audio.format)));
    if (audio.kind === 'encoded') {
      // an encoder (AAC and FLAC: a thread) for as long as the client takes to read: one of the key's slots
      holdForAnswer(slots.encoders, request, reply);
      // encoded as it goes: its length and bytes are not known ahead, so no ranges
      return reply.header('accept-ranges', 'none').send(Readable.from(audio.body));
    }
    request.onMissingFile = () => jobs.audioMissing(id, audio.format);
    // the format's own type, not one guessed from the extension (.pcm, .flac)
    return reply.sendFile(path.basename(audio.file), path.dirname(audio.file), {
      acceptRanges: true,
      cacheControl: false,
      contentType: false,
      etag: true,
      lastModified: true,
    });
  });

  // read from the file per request, only the level and span asked for; the tag spares a client that has them
  serve(app, API.getJobPeaks, async (request, reply) => {
    const { peaks, tag } = await jobs.peaks(request.params.id, request.query);
    const etag = `"${tag}-${Buffer.from(JSON.stringify(request.query)).toString('base64url')}"`;
    reply.header('etag', etag);
    if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
    return peaks;
  });

  serve(app, API.getJobTimings, async (request) => jobs.timings(request.params.id));

  serve(app, API.getJobSubtitles, async (request, reply) => {
    const format = request.query.format ?? 'vtt';
    const text = await jobs.subtitles(request.params.id, format);
    return reply
      .type(SUBTITLE_MEDIA[format])
      .header('content-disposition', contentDisposition('inline', `orator-job-${request.params.id.slice(0, 8)}.${format}`))
      .send(text);
  });

  serve(app, API.streamJobEvents, async (request, reply) => openStream(request, reply, jobEvents(jobs.eventsOf(request.params.id))));

  serve(app, API.streamEvents, async (request, reply) => {
    const lastId = request.headers['last-event-id'];
    return openStream(request, reply, allEvents(lastId === undefined ? undefined : Number(lastId)));
  });
};
