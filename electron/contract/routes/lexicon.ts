import { Type } from 'typebox';
import {
  LEXICON_MEDIA_TYPES,
  LexiconEntryParams,
  LexiconExportQuery,
  LexiconImport,
  LexiconImportResult,
  LexiconList,
  LexiconPatch,
  LexiconReplace,
  LexiconScope,
} from '../lexicon';
import { TTS_ROOT } from '../paths';
import { mediaAnswer, routeGroup } from './route';

const lexicon = `${TTS_ROOT}/lexicon`;

/**
 * The pronunciation lexicon takes the TTS key, reading and writing alike: it changes what is said,
 * never what runs (unlike settings, which name programs and folders and take the admin token).
 */
export const lexiconApi = routeGroup('lexicon', {
  getLexicon: {
    method: 'GET',
    path: lexicon,
    summary: 'Lexicon entries, all or of one language or voice',
    query: LexiconScope,
    responses: { 200: LexiconList },
  },
  replaceLexicon: {
    method: 'PUT',
    path: lexicon,
    summary: 'Replace the whole lexicon',
    body: LexiconReplace,
    responses: { 200: LexiconList },
    errors: [413],
  },
  changeLexicon: {
    method: 'PATCH',
    path: lexicon,
    summary: 'Add or replace entries (same grapheme, language, voice and case rule) and delete entries by id',
    body: LexiconPatch,
    responses: { 200: LexiconList },
    errors: [404, 413],
  },
  clearLexicon: {
    method: 'DELETE',
    path: lexicon,
    summary: 'Delete the entries of a language or voice, or all entries',
    query: LexiconScope,
    responses: { 200: LexiconList },
  },
  deleteLexiconEntry: {
    method: 'DELETE',
    path: `${lexicon}/:id`,
    summary: 'Delete one entry',
    params: LexiconEntryParams,
    responses: { 204: Type.Null() },
    errors: [404],
  },
  exportLexicon: {
    method: 'GET',
    path: `${lexicon}/export`,
    summary: 'The lexicon as a PLS (one language) or CSV file',
    query: LexiconExportQuery,
    responses: {
      200: mediaAnswer('The lexicon as a file: PLS (application/pls+xml) or CSV (text/csv)', Object.values(LEXICON_MEDIA_TYPES), false),
    },
  },
  importLexicon: {
    method: 'POST',
    path: `${lexicon}/import`,
    summary: 'Import a PLS or CSV file, its text in "data"',
    body: LexiconImport,
    responses: { 200: LexiconImportResult },
    errors: [413],
  },
});

export const LEXICON_PATH = lexiconApi.getLexicon.path;
export const LEXICON_EXPORT_PATH = lexiconApi.exportLexicon.path;
export const LEXICON_IMPORT_PATH = lexiconApi.importLexicon.path;
