import { useEffect, useState } from 'react';
import { useApp } from '../store';

const dark = () => window.matchMedia?.('(prefers-color-scheme: dark)');

/** Puts the effective theme on <html data-theme>, following the system unless the user chose one. */
export function useThemeAttribute(): void {
  const theme = useApp((s) => s.theme);
  const systemDark = useSystemDark();
  useEffect(() => {
    document.documentElement.dataset.theme = theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
  }, [theme, systemDark]);
}

function useSystemDark(): boolean {
  const [isDark, setDark] = useState(() => dark()?.matches ?? false);
  useEffect(() => {
    const query = dark();
    if (!query) return;
    const onChange = () => setDark(query.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return isDark;
}

export interface WaveColors {
  wave: string;
  progress: string;
  cursor: string;
}

/** Waveform colours from the CSS theme (canvas cannot read CSS variables itself). */
export function useWaveColors(): WaveColors {
  const theme = useApp((s) => s.theme);
  const systemDark = useSystemDark();
  const [colors, setColors] = useState<WaveColors>(readColors);
  useEffect(() => {
    // After the theme attribute effect has run.
    const id = requestAnimationFrame(() => setColors(readColors()));
    return () => cancelAnimationFrame(id);
  }, [theme, systemDark]);
  return colors;
}

function readColors(): WaveColors {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return { wave: v('--wave', '#9aa5b1'), progress: v('--wave-progress', '#3b6fd8'), cursor: v('--wave-cursor', '#1f2933') };
}
