import { useEffect, useMemo, useState } from 'react';
import type { LibraryVoice } from '../api/contract';
import { AdminTokenField } from '../settings/AdminTokenField';
import { desktopBridge } from '../settings/desktop-bridge';
import { useApp } from '../store';
import { libraryWriter } from './library-writer';
import { LibraryVoiceRow } from './LibraryVoiceRow';

/** Rows shown at once: the catalog has hundreds of voices; a search narrows them. */
const SHOWN = 200;

/** The catalog's voices (components such as vocoders are not voices) matching a search and a quality. */
export function matchLibrary(voices: LibraryVoice[], search: string, quality: string): LibraryVoice[] {
  const wanted = search.trim().toLowerCase();
  return voices.filter(
    (v) =>
      v.engine !== 'component' &&
      (!quality || v.quality === quality) &&
      (!wanted ||
        v.name.toLowerCase().includes(wanted) ||
        v.language.toLowerCase().startsWith(wanted) ||
        v.id.toLowerCase().includes(wanted)),
  );
}

/**
 * The voice library (docs/voices.md): the catalog's voices, searched by name or language, with
 * quality, size and licence; one click installs (the licence accepted first where it limits the
 * audio), a bar shows the bytes as the event stream reports them (voice-library-slice.ts), and an
 * installed voice can be tried at once. Installing takes the admin token, which this page keeps in
 * memory only (voice-library-slice.ts); in the desktop app the main process installs instead, after a
 * native confirmation.
 */
export function VoiceLibraryPanel() {
  const client = useApp((s) => s.client);
  const library = useApp((s) => s.library);
  const error = useApp((s) => s.libraryError);
  const loadLibrary = useApp((s) => s.loadLibrary);
  const [search, setSearch] = useState('');
  const [quality, setQuality] = useState('');
  const adminToken = useApp((s) => s.libraryAdminToken);
  const setAdminToken = useApp((s) => s.setLibraryAdminToken);
  const writer = client && libraryWriter(client, desktopBridge(), adminToken);

  useEffect(() => {
    if (client) void loadLibrary();
  }, [client, loadLibrary]);

  const voices = useMemo(() => matchLibrary(library?.voices ?? [], search, quality), [library, search, quality]);
  const total = library ? matchLibrary(library.voices, '', '').length : 0;

  return (
    <section className="card voice-library" aria-labelledby="library-title">
      <div className="voices-head">
        <h2 id="library-title">Voice library</h2>
        <span className="muted small" role="status">
          {library ? `${voices.length} of ${total} voices` : 'Loading…'}
        </span>
      </div>
      <p className="muted small">
        Natural voices to download once and then use offline. The library needs the network once per voice; without it, copy a voice’s
        folder (with its <code>orator-voice.json</code>) from another machine’s models folder into this one’s, then refresh the engines.
      </p>
      {!writer && <AdminTokenField onUnlock={setAdminToken} />}
      <div className="settings-row">
        <input
          type="search"
          placeholder="Search by name or language (en, de-DE…)"
          aria-label="Search the voice library"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <select aria-label="Quality" value={quality} onChange={(e) => setQuality(e.target.value)}>
          <option value="">Any quality</option>
          <option value="high">High</option>
          <option value="medium">Medium</option>
          <option value="low">Low</option>
          <option value="x_low">Very low</option>
        </select>
        {writer && <RefreshButton refresh={writer.refresh} />}
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <LibraryList voices={voices.slice(0, SHOWN)} writer={writer} />
    </section>
  );
}

/** Reads the catalog again from voice_catalog_url (a mirror set in Settings, say). */
function RefreshButton({ refresh }: { refresh(): Promise<unknown> }) {
  const changeLibrary = useApp((s) => s.changeLibrary);
  const loadLibrary = useApp((s) => s.loadLibrary);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    await changeLibrary(refresh);
    await loadLibrary();
    setBusy(false);
  };
  return (
    <button type="button" className="small secondary" disabled={busy} onClick={() => void run()}>
      {busy ? 'Refreshing…' : 'Refresh catalog'}
    </button>
  );
}

function LibraryList({ voices, writer }: { voices: LibraryVoice[]; writer: ReturnType<typeof libraryWriter> }) {
  const changeLibrary = useApp((s) => s.changeLibrary);
  const loadEngines = useApp((s) => s.loadEngines);
  const previewVoice = useApp((s) => s.previewVoice);
  const previewing = useApp((s) => s.previewingVoice);
  const previewError = useApp((s) => s.previewError);
  // Install and remove change the entry through the events; an engine goes at once when removed.
  const remove = (id: string) =>
    changeLibrary(async () => {
      await writer!.remove(id);
      await loadEngines();
    });
  return (
    <ul className="library-list" aria-label="Library voices">
      {voices.map((voice) => (
        <LibraryVoiceRow
          key={voice.id}
          voice={voice}
          canChange={writer !== null}
          trying={voice.voice_id !== undefined && previewing === voice.voice_id}
          tryError={previewError && previewError.voice === voice.voice_id ? previewError.message : undefined}
          onInstall={(accept) => void changeLibrary(() => writer!.install(voice.id, accept))}
          onRemove={() => void remove(voice.id)}
          onTry={() => void previewVoice(voice.voice_id!)}
        />
      ))}
    </ul>
  );
}
