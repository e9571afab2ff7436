import { OPTION_RANGES, type OptionName } from '../api/contract';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store';
import { effectiveVoiceId } from '../store/editor-slice';
import { findVoice } from '../store/engines-slice';

const LABELS: Record<OptionName, string> = { rate: 'Rate', pitch: 'Pitch', volume: 'Volume' };

export function ProsodyControls() {
  const values = useApp(useShallow((s) => ({ rate: s.rate, pitch: s.pitch, volume: s.volume })));
  const setOption = useApp((s) => s.setOption);
  const resetOptions = useApp((s) => s.resetOptions);
  // Some voices ignore an option (the engine cannot do it); say so instead of silently dropping it.
  const support = useApp((s) => findVoice(s, effectiveVoiceId(s))?.options);
  const isDefault = (Object.keys(LABELS) as OptionName[]).every((n) => values[n] === OPTION_RANGES[n].default);

  return (
    <fieldset className="prosody">
      <legend className="visually-hidden">Voice settings</legend>
      {(Object.keys(LABELS) as OptionName[]).map((name) => (
        <label key={name} className="slider" title={support?.[name] === 'ignored' ? `This voice ignores ${name}.` : undefined}>
          <span className="slider-label">
            {LABELS[name]} <output>{support?.[name] === 'ignored' ? 'n/a' : `${values[name].toFixed(2)}×`}</output>
          </span>
          <input
            type="range"
            min={OPTION_RANGES[name].min}
            max={OPTION_RANGES[name].max}
            step={0.05}
            value={values[name]}
            aria-label={LABELS[name]}
            aria-valuetext={`${values[name].toFixed(2)} times`}
            disabled={support?.[name] === 'ignored'}
            onChange={(e) => setOption(name, Number(e.target.value))}
          />
        </label>
      ))}
      <button type="button" className="ghost small" onClick={resetOptions} disabled={isDefault}>
        Reset
      </button>
    </fieldset>
  );
}
