import type { SettingName } from '../api/contract';

const lockNoteId = (name: SettingName) => `setting-${name}-locked`;

/** Says why a setting cannot be changed here: a flag or environment variable set it for this run. */
export function LockNote({ name, by }: { name: SettingName; by: string | undefined }) {
  if (!by) return null;
  return (
    <span id={lockNoteId(name)} className="muted small">
      Set by {by}, cannot be changed here.
    </span>
  );
}

/** A setting's input: disabled and described by its LockNote when a flag or variable set it. */
export function inputLock(by: string | undefined, name: SettingName) {
  return by === undefined ? { disabled: false } : { disabled: true, 'aria-describedby': lockNoteId(name) };
}
