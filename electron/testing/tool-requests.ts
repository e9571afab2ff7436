/**
 * Test support: the requests real OpenAI-compatible tools send, byte for byte, as their source
 * builds them, with the headers their HTTP libraries add; and each tool's own reading of the
 * listings that fill its voice and model pickers. `KEY` stands for the API key the tool is
 * configured with. Sources (read, not copied):
 *
 * - Open WebUI, open-webui/open-webui@6adde203 `backend/open_webui/routers/audio.py`: `speech()`
 *   takes the browser's `{input, voice}`, sets `model` to the admin's TTS model, merges the admin's
 *   `TTS_OPENAI_PARAMS` over it and posts it with aiohttp (`json=`: Python's `json.dumps`, ASCII
 *   escapes); `get_available_models()` / `get_available_voices()` call `{base}/audio/models` and
 *   `{base}/audio/voices` with `requests.get` and no Authorization, and read `data.get("models")`
 *   and `{voice["id"]: voice["name"] for voice in data.get("voices", [])}`.
 * - SillyTavern, SillyTavern/SillyTavern@ba6f7b7a `src/endpoints/openai.js` (`/custom/generate-voice`,
 *   fed by `public/scripts/extensions/tts/openai-compatible.js`): node-fetch posts
 *   `JSON.stringify({input, response_format: 'mp3', voice, speed, model})` to the configured
 *   endpoint; `speed` is the saved setting as it is stored (a string in older settings files).
 * - Home Assistant's `openai_tts`, sfortis/openai_tts@917b2825 `custom_components/openai_tts/openaitts_engine.py`:
 *   `{model, input, voice, response_format, speed}` plus `instructions`, then the user's
 *   `extra_payload` merged over it with `payload.update`; urllib for whole answers (mp3), aiohttp for
 *   streamed ones (opus); `voice_listing.py` (@25f66648) asks `<speech url's folder>/voices?limit=100`
 *   with the key and reads `items`, else `data`, else `voices`, each `id` (or `voice_id`) and `name`.
 *   `"instructions": null` as the issue recorded it (a service call that passes None through).
 */

export interface ToolRequest {
  tool: string;
  what: string;
  method: 'GET' | 'POST';
  path: string;
  /** As the tool's HTTP library sends them, `KEY` for the key; Host and Content-Length are the transport's. */
  headers: Record<string, string>;
  /** The body's exact bytes. */
  body?: string;
}

export interface SpeechRecording extends ToolRequest {
  /** The format the tool asks for, or gets by default. */
  format: 'mp3' | 'ogg' | 'wav';
  /** The text spoken, as the tool sent it (before JSON escaping). */
  text: string;
  /** What X-Orator-Ignored-Fields must say; null: absent. */
  ignored: string | null;
  /** The voice that must speak (X-Orator-Voice). */
  voice: string;
}

const AIOHTTP = { 'User-Agent': 'Python/3.12 aiohttp/3.11.18', Accept: '*/*', 'Accept-Encoding': 'gzip, deflate' };
const REQUESTS = { 'User-Agent': 'python-requests/2.32.3', 'Accept-Encoding': 'gzip, deflate', Accept: '*/*', Connection: 'keep-alive' };
const NODE_FETCH = {
  Accept: '*/*',
  'User-Agent': 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
  'Accept-Encoding': 'gzip,deflate',
  Connection: 'close',
};

const OWUI_TEXT = 'Bonjour! Café au lait, s’il vous plaît: Open WebUI reads this sentence aloud.';
const ST_TEXT = '*waves* Hello there, traveller. The tavern is warm tonight.';
const HA_TEXT = 'The front door has been open for ten minutes.';

export const SPEECH_RECORDINGS: SpeechRecording[] = [
  {
    tool: 'Open WebUI',
    what: 'a chat message read aloud, no TTS_OPENAI_PARAMS',
    method: 'POST',
    path: '/v1/audio/speech',
    headers: { ...AIOHTTP, 'Content-Type': 'application/json', Authorization: 'Bearer KEY' },
    body: '{"input": "Bonjour! Caf\\u00e9 au lait, s\\u2019il vous pla\\u00eet: Open WebUI reads this sentence aloud.", "voice": "alloy", "model": "tts-1"}',
    format: 'mp3',
    text: OWUI_TEXT,
    ignored: null,
    voice: 'espeak-ng:en-us',
  },
  {
    tool: 'Open WebUI',
    what: 'with TTS_OPENAI_PARAMS {"stream": true, "response_format": "wav", "temperature": 0.7}',
    method: 'POST',
    path: '/v1/audio/speech',
    headers: { ...AIOHTTP, 'Content-Type': 'application/json', Authorization: 'Bearer KEY' },
    body: '{"input": "Bonjour! Caf\\u00e9 au lait, s\\u2019il vous pla\\u00eet: Open WebUI reads this sentence aloud.", "voice": "nova", "model": "tts-1", "stream": true, "response_format": "wav", "temperature": 0.7}',
    format: 'wav',
    text: OWUI_TEXT,
    ignored: 'temperature',
    voice: 'flite:slt',
  },
  {
    tool: 'SillyTavern',
    what: 'a character’s line, speed a number',
    method: 'POST',
    path: '/v1/audio/speech',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer KEY', ...NODE_FETCH },
    body: '{"input":"*waves* Hello there, traveller. The tavern is warm tonight.","response_format":"mp3","voice":"fable","speed":1,"model":"tts-1"}',
    format: 'mp3',
    text: ST_TEXT,
    ignored: null,
    voice: 'espeak-ng:en-gb',
  },
  {
    tool: 'SillyTavern',
    what: 'speed saved as text',
    method: 'POST',
    path: '/v1/audio/speech',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer KEY', ...NODE_FETCH },
    body: '{"input":"*waves* Hello there, traveller. The tavern is warm tonight.","response_format":"mp3","voice":"fable","speed":"1.0","model":"tts-1"}',
    format: 'mp3',
    text: ST_TEXT,
    ignored: null,
    voice: 'espeak-ng:en-gb',
  },
  {
    tool: 'Home Assistant openai_tts',
    what: 'an announcement, Kokoro-FastAPI extras in extra_payload',
    method: 'POST',
    path: '/v1/audio/speech',
    headers: {
      'Accept-Encoding': 'identity',
      'Content-Type': 'application/json',
      'User-Agent': 'HomeAssistant-OpenAI-TTS',
      Authorization: 'Bearer KEY',
      Connection: 'close',
    },
    body: '{"model": "tts-1", "input": "The front door has been open for ten minutes.", "voice": "alloy", "response_format": "mp3", "speed": 1.0, "instructions": null, "lang_code": "a", "volume_multiplier": 1.5, "normalization_options": {"normalize": true, "unit_normalization": false}, "return_download_link": false}',
    format: 'mp3',
    text: HA_TEXT,
    ignored: 'normalization_options',
    voice: 'espeak-ng:en-us',
  },
  {
    tool: 'Home Assistant openai_tts',
    what: 'streamed as Opus, extra_payload {"lang_code": "b"}',
    method: 'POST',
    path: '/v1/audio/speech',
    headers: { ...AIOHTTP, 'Content-Type': 'application/json', 'User-Agent': 'HomeAssistant-OpenAI-TTS', Authorization: 'Bearer KEY' },
    body: '{"model": "tts-1", "input": "The front door has been open for ten minutes.", "voice": "alloy", "response_format": "opus", "speed": 1.0, "lang_code": "b"}',
    format: 'ogg',
    text: HA_TEXT,
    ignored: null,
    voice: 'espeak-ng:en-gb',
  },
];

export interface ListingRecording extends ToolRequest {
  /** The tool's own reading of the answer: the options its picker shows, as [value, label]. */
  read(body: unknown): [string, string][];
}

/** Open WebUI: `data.get("models", [])`, each an {id}. */
function openWebUIModels(body: unknown): [string, string][] {
  const models = ((body as { models?: { id: string; name?: string }[] }).models ?? []) as { id: string; name?: string }[];
  return models.map((m) => [m.id, m.name ?? m.id]);
}

/** Open WebUI: `{voice["id"]: voice["name"] for voice in data.get("voices", [])}`: a voice without either is a KeyError. */
function openWebUIVoices(body: unknown): [string, string][] {
  return ((body as { voices?: Record<string, unknown>[] }).voices ?? []).map((voice) => {
    if (typeof voice.id !== 'string' || typeof voice.name !== 'string') throw new Error(`KeyError in Open WebUI: ${JSON.stringify(voice)}`);
    return [voice.id, voice.name];
  });
}

/** Home Assistant: `items or data or voices`, or a bare list; strings, or dicts with id (voice_id, value) and name (label). */
function homeAssistantVoices(body: unknown): [string, string][] {
  const object = body as Record<string, unknown>;
  const items = (
    Array.isArray(body) ? body : (object.items as unknown[]) || (object.data as unknown[]) || (object.voices as unknown[]) || []
  ) as unknown[];
  return items.flatMap((item): [string, string][] => {
    if (typeof item === 'string') return item ? [[item, item]] : [];
    const voice = item as Record<string, unknown>;
    const id = voice.id ?? voice.voice_id ?? voice.value;
    return id ? [[String(id), String(voice.name ?? voice.label ?? id)]] : [];
  });
}

export const LISTING_RECORDINGS: ListingRecording[] = [
  { tool: 'Open WebUI', what: 'the model picker', method: 'GET', path: '/v1/audio/models', headers: REQUESTS, read: openWebUIModels },
  { tool: 'Open WebUI', what: 'the voice picker', method: 'GET', path: '/v1/audio/voices', headers: REQUESTS, read: openWebUIVoices },
  {
    tool: 'Home Assistant openai_tts',
    what: 'the voice picker',
    method: 'GET',
    path: '/v1/audio/voices?limit=100',
    headers: { ...AIOHTTP, 'User-Agent': 'HomeAssistant-OpenAI-TTS', Authorization: 'Bearer KEY' },
    read: homeAssistantVoices,
  },
];

/** The headers with the key in place of `KEY`. */
export function withKey(headers: Record<string, string>, key: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace('KEY', key)]));
}
