import { useRef, useState, type DragEvent } from 'react';
import { useApp } from '../store';
import { effectiveVoiceId } from '../store/editor-slice';
import { EditorActions } from './EditorActions';
import { EditorStatus, EditorText } from './EditorText';
import { ProsodyControls } from './ProsodyControls';
import { VoicePicker } from './VoicePicker';

const ACCEPT = '.txt,.md,.markdown,text/plain,text/markdown';

function isTextFile(file: File): boolean {
  return /\.(txt|md|markdown)$/i.test(file.name) || file.type.startsWith('text/');
}

export function Editor() {
  const setText = useApp((s) => s.setText);
  const setVoice = useApp((s) => s.setVoice);
  const shownVoice = useApp(effectiveVoiceId);
  const [dragging, setDragging] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const openFile = async (file: File | undefined) => {
    if (!file) return;
    if (!isTextFile(file)) return setFileError(`“${file.name}” is not a text file; open a .txt or .md file.`);
    setFileError(null);
    setText(await file.text());
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void openFile(event.dataTransfer.files[0]);
  };

  return (
    <section className="card editor" aria-labelledby="editor-title">
      <div className="editor-head">
        <h2 id="editor-title">Text</h2>
        <div className="editor-tools">
          <label className="inline-field">
            <span>Voice</span>
            <VoicePicker label="Voice" value={shownVoice} onChange={(v) => setVoice(v || null)} />
          </label>
          <button type="button" className="secondary" onClick={() => fileInput.current?.click()}>
            Open file…
          </button>
          <input
            ref={fileInput}
            type="file"
            accept={ACCEPT}
            hidden
            aria-label="Open a text file"
            onChange={(e) => {
              void openFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
      </div>

      <div
        className={`dropzone${dragging ? ' dragging' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <EditorText />
      </div>
      <EditorStatus />

      <ProsodyControls />

      <EditorActions fileError={fileError} />
    </section>
  );
}
