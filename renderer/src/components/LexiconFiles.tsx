import type { LexiconFormat } from '../api/contract';
import { saveBlob } from '../lib/download';
import { useApp } from '../store';

/** The lexicon in and out as files: PLS (one language: the form's) or CSV (every language). */
export function LexiconFiles({ language }: { language: string }) {
  const { importLexicon, exportLexicon } = useApp.getState();

  const exportAs = async (format: LexiconFormat) => {
    const blob = await exportLexicon(format, language);
    if (blob) saveBlob(blob, `orator-lexicon${format === 'pls' ? `-${language}` : ''}.${format}`);
  };

  return (
    <div className="lexicon-files">
      <label className="file-button">
        Import PLS or CSV…
        <input
          type="file"
          accept=".pls,.xml,.csv"
          className="visually-hidden"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void importLexicon(file, language);
            e.target.value = '';
          }}
        />
      </label>
      <button type="button" className="secondary small" onClick={() => void exportAs('pls')}>
        Export PLS ({language})
      </button>
      <button type="button" className="secondary small" onClick={() => void exportAs('csv')}>
        Export CSV
      </button>
    </div>
  );
}
