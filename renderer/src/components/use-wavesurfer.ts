import { useEffect, useState, type RefObject } from 'react';
import WaveSurfer, { type WaveSurferOptions } from 'wavesurfer.js';
import { useWaveColors } from './use-theme';

type Options = Omit<WaveSurferOptions, 'container' | 'waveColor' | 'progressColor' | 'cursorColor'>;

/**
 * One WaveSurfer per mounted container, created once: sources change through load(), not by
 * rebuilding the instance. Colours follow the theme.
 */
export function useWaveSurfer(container: RefObject<HTMLDivElement | null>, options: Options): WaveSurfer | null {
  const [ws, setWs] = useState<WaveSurfer | null>(null);
  const colors = useWaveColors();

  useEffect(() => {
    if (!container.current) return;
    const instance = WaveSurfer.create({
      ...options,
      container: container.current,
      waveColor: colors.wave,
      progressColor: colors.progress,
      cursorColor: colors.cursor,
    });
    // The instance lives outside React (it owns the container's DOM): publishing it once created is
    // what this effect is for.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setWs(instance);
    return () => {
      instance.destroy();
      setWs(null);
    };
    // Created once per container; later option changes go through setOptions below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [container]);

  useEffect(() => {
    ws?.setOptions({ waveColor: colors.wave, progressColor: colors.progress, cursorColor: colors.cursor });
  }, [ws, colors]);

  return ws;
}

export interface Playback {
  playing: boolean;
  /** Seconds, updated about ten times a second while playing. */
  time: number;
  duration: number;
}

/** Playback state as component state: it changes too often for the store. */
export function usePlayback(ws: WaveSurfer | null): Playback {
  const [state, setState] = useState<Playback>({ playing: false, time: 0, duration: 0 });
  useEffect(() => {
    if (!ws) return;
    let lastShown = -1;
    const update = (patch: Partial<Playback>) => setState((s) => ({ ...s, ...patch }));
    const onTime = (time: number) => {
      const shown = Math.floor(time * 10);
      if (shown === lastShown) return;
      lastShown = shown;
      update({ time });
    };
    const subscriptions = [
      ws.on('play', () => update({ playing: true })),
      ws.on('pause', () => update({ playing: false })),
      ws.on('finish', () => update({ playing: false })),
      ws.on('timeupdate', onTime),
      ws.on('ready', (duration) => update({ duration, time: ws.getCurrentTime() })),
      ws.on('load', () => update({ duration: 0, time: 0, playing: false })),
    ];
    return () => subscriptions.forEach((unsubscribe) => unsubscribe());
  }, [ws]);
  return state;
}
