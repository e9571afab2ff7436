import type { Voice } from '../api/contract';
import { VoiceRow } from './VoiceRow';

/** The voices the filters let through, one row each (VoiceRow). */
export function VoiceTable({ voices }: { voices: Voice[] }) {
  return (
    <div className="table-scroll">
      <table className="voice-table">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Favourite</span>
            </th>
            <th scope="col">Voice</th>
            <th scope="col">Language</th>
            <th scope="col">Gender</th>
            <th scope="col">Quality</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {voices.map((v) => (
            <VoiceRow key={v.id} voice={v} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
