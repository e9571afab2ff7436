import { ChunkParams, ChunkReceipt, INTERNAL_ROOT, WorkerCheck } from '../internal';
import { pathOf, routeGroup } from './route';

/** The worker hosts' routes (docs/scale.md): outside the API and its document, opened by the worker token only. */
export const internalApi = routeGroup('internal', {
  checkWorker: {
    method: 'GET',
    path: `${INTERNAL_ROOT}/worker`,
    summary: 'Answers 200 to the right worker token, so that a host finds a wrong one at its start',
    auth: 'worker',
    hidden: true,
    responses: { 200: WorkerCheck },
  },
  uploadChunk: {
    method: 'PUT',
    path: `${INTERNAL_ROOT}/chunks/:job/:index`,
    summary: "A chunk's audio (a 16-bit mono WAV) of a job",
    auth: 'worker',
    hidden: true,
    params: ChunkParams,
    responses: { 200: ChunkReceipt },
  },
});

export const WORKER_CHECK_PATH = internalApi.checkWorker.path;
export const chunkUploadPath = (jobId: string, idx: number) => pathOf(internalApi.uploadChunk, { job: jobId, index: idx });
