import { Type } from 'typebox';
import { Export, ExportAccepted, ExportList, ExportParams, ExportRequest, EXPORT_FORMATS, EXPORT_MEDIA, SubtitleQuery } from '../exports';
import type { SubtitleFormat } from '../exports';
import { TTS_ROOT } from '../paths';
import { mediaAnswer, pathOf, routeGroup } from './route';
import { jobsApi, subtitlesAnswer } from './jobs';

const file = mediaAnswer(
  'The audiobook: M4B, MP3 or ZIP',
  EXPORT_FORMATS.map((format) => EXPORT_MEDIA[format].contentType),
);
const one = `${TTS_ROOT}/exports/:id`;

export const exportsApi = routeGroup('exports', {
  createExport: {
    method: 'POST',
    path: `${TTS_ROOT}/exports`,
    summary: 'Export finished jobs as an audiobook (M4B, MP3 or ZIP) with chapters, normalised loudness and subtitles',
    body: ExportRequest,
    responses: { 202: ExportAccepted },
    errors: [404, 409, 410, 429, 507],
  },
  listExports: { method: 'GET', path: `${TTS_ROOT}/exports`, summary: 'Exports, newest first', responses: { 200: ExportList } },
  getExport: {
    method: 'GET',
    path: one,
    summary: 'An export and its progress',
    params: ExportParams,
    responses: { 200: Export },
    errors: [404],
  },
  getExportFile: {
    method: 'GET',
    path: `${one}/file`,
    summary: 'The finished audiobook (Range requests work)',
    params: ExportParams,
    responses: { 200: file, 206: file },
    errors: [404, 409, 416],
  },
  getExportSubtitles: {
    method: 'GET',
    path: `${one}/subtitles`,
    summary: "The whole book's captions, one cue per sentence, in the book's time: WebVTT (default) or SubRip",
    params: ExportParams,
    query: SubtitleQuery,
    responses: { 200: subtitlesAnswer },
    errors: [404, 409],
  },
  deleteExport: {
    method: 'DELETE',
    path: one,
    summary: 'Stop an export being made, or delete a finished one, with its files',
    params: ExportParams,
    responses: { 204: Type.Null({ description: 'Deleted' }) },
    errors: [404],
  },
});

export const EXPORTS_PATH = exportsApi.createExport.path;
export const exportPath = (id: string) => pathOf(exportsApi.getExport, { id });
export const exportFilePath = (id: string) => pathOf(exportsApi.getExportFile, { id });
export const exportSubtitlesPath = (id: string, format: SubtitleFormat) =>
  `${pathOf(exportsApi.getExportSubtitles, { id })}?format=${format}`;
export const jobSubtitlesPath = (id: string, format: SubtitleFormat) => `${pathOf(jobsApi.getJobSubtitles, { id })}?format=${format}`;
