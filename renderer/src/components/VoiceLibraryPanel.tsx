import { API } from '../api/contract';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { LibraryVoice, VoiceLibraryList } from '../api/contract';
import { AdminTokenField } from '../settings/AdminTokenField';
import { desktopBridge } from '../settings/desktop-bridge';
import { useApp } from '../store';
import { libraryWriter } from './library-writer';
import { LibraryVoiceRow } from './LibraryVoiceRow';

const POLL_MS = 1000;

/**
 * The voice library (docs/voices.md): the catalog's voices, searched by name or language, with
 * quality, size and licence; one click installs (the licence accepted first where it limits the
 * audio), a bar shows the bytes, and an installed voice can be tried at once. Installing takes the
 * admin token, which this page keeps in memory only, as the settings do; in the desktop app the main
 * process installs instead, after a native confirmation.
 */
export function VoiceLibraryPanel() {
  const client = useApp((s) => s.client);
  const loadEngines = useApp((s) => s.loadEngines);
  const [library, setLibrary] = useState<VoiceLibraryList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [quality, setQuality] = useState('');
  const [adminToken, setAdminToken] = useState<string | null>(null);
  const bridge = desktopBridge();
  const writer = client && libraryWriter(client, bridge, adminToken);

  const load = useCallback(async () => {
    if (!client) return;
    try {
      setLibrary(await client.call(API.listLibraryVoices));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [client]);

  useEffect(() => {
    if (!client) return;
    let live = true;
    client.call(API.listLibraryVoices).then(
      (list) => live && setLibrary(list),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [client]);

  const busy = library?.voices.some((v) => v.state === 'queued' || v.state === 'installing') ?? false;
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => {
      clearInterval(timer);
      // an install ended: the engines list its voice now
      void loadEngines();
    };
  }, [busy, load, loadEngines]);

  const voices = useMemo(() => {
    const wanted = search.trim().toLowerCase();
    return (library?.voices ?? []).filter(
      (v) =>
        v.engine !== 'component' &&
        (!quality || v.quality === quality) &&
        (!wanted ||
          v.name.toLowerCase().includes(wanted) ||
          v.language.toLowerCase().startsWith(wanted) ||
          v.id.toLowerCase().includes(wanted)),
    );
  }, [library, search, quality]);

  const act = async (action: () => Promise<unknown>) => {
    try {
      await action();
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
    await load();
    await loadEngines();
  };

  return (
    <section className="card voice-library" aria-labelledby="library-title">
      <div className="voices-head">
        <h2 id="library-title">Voice library</h2>
        <span className="muted small" role="status">
          {library ? `${voices.length} of ${library.voices.filter((v) => v.engine !== 'component').length} voices` : 'Loading…'}
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
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ul className="library-list" aria-label="Library voices">
        {voices.slice(0, 200).map((voice: LibraryVoice) => (
          <LibraryVoiceRow
            key={voice.id}
            voice={voice}
            canChange={writer !== null}
            onInstall={(accept) => act(() => writer!.install(voice.id, accept))}
            onRemove={() => act(() => writer!.remove(voice.id))}
            onTry={() => act(() => tryVoice(voice.voice_id!))}
          />
        ))}
      </ul>
    </section>
  );

  async function tryVoice(voiceId: string) {
    const audio = await client!.preview({ voice: voiceId });
    const url = URL.createObjectURL(audio.blob);
    const player = new Audio(url);
    player.onended = () => URL.revokeObjectURL(url);
    await player.play().catch(() => undefined);
  }
}
