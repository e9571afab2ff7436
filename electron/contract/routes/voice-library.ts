import { Type } from 'typebox';
import { TTS_ROOT } from '../paths';
import { LibraryVoice, VoiceInstallBody, VoiceLibraryList, VoiceLibraryParams, VoiceLibraryQuery } from '../voice-library';
import { pathOf, routeGroup } from './route';

const library = `${TTS_ROOT}/voice-library`;

/**
 * The voice library (docs/voices.md). Listing takes the TTS key; installing, removing and
 * refreshing take the admin token, like every setting that changes what runs (a voice is a model
 * the neural engine loads).
 */
export const voiceLibraryApi = routeGroup('voice library', {
  listLibraryVoices: {
    method: 'GET',
    path: library,
    summary: 'Voices of the catalog with their state; filters: language (a BCP 47 prefix), quality, state',
    query: VoiceLibraryQuery,
    responses: { 200: VoiceLibraryList },
  },
  refreshVoiceCatalog: {
    method: 'POST',
    path: `${library}/refresh`,
    summary: 'Read the catalog again from voice_catalog_url (admin token); unreachable: 502, the last catalog kept; no body',
    auth: 'admin',
    responses: { 200: VoiceLibraryList },
    errors: [502],
  },
  getLibraryVoice: {
    method: 'GET',
    path: `${library}/:id`,
    summary: 'One voice of the catalog with its state',
    params: VoiceLibraryParams,
    responses: { 200: LibraryVoice },
    errors: [404],
  },
  installVoice: {
    method: 'POST',
    path: `${library}/:id/install`,
    summary:
      'Install a voice (admin token): 202 queued, 200 already installed; {"accept_license": true} where the licence asks; 502 when its checksum list or size cannot be read',
    auth: 'admin',
    params: VoiceLibraryParams,
    body: VoiceInstallBody,
    responses: { 200: LibraryVoice, 202: LibraryVoice },
    errors: [404, 409, 502, 507],
  },
  removeVoice: {
    method: 'DELETE',
    path: `${library}/:id`,
    summary: 'Cancel an install, or remove an installed voice (admin token)',
    auth: 'admin',
    params: VoiceLibraryParams,
    responses: { 204: Type.Null({ description: 'Cancelled or removed' }) },
    errors: [404],
  },
});

export const VOICE_LIBRARY_PATH = voiceLibraryApi.listLibraryVoices.path;
export const VOICE_LIBRARY_REFRESH_PATH = voiceLibraryApi.refreshVoiceCatalog.path;
export const voiceLibraryPath = (id: string) => pathOf(voiceLibraryApi.getLibraryVoice, { id });
export const voiceInstallPath = (id: string) => pathOf(voiceLibraryApi.installVoice, { id });
