/**
 * The environment of every engine process (system programs and the neural model process): an
 * allow-list, so that neither ORATOR_API_KEY nor any other secret of the gateway's environment
 * reaches a program that reads untrusted text.
 */
const PASSED = new Set([
  // finding sub-programs (text2wave runs festival, espeak-ng runs mbrola) and shared libraries
  'PATH',
  'LD_LIBRARY_PATH',
  'DYLD_LIBRARY_PATH',
  // per-user configuration and voices: ~/.festivalrc, Piper and Mimic 3 voices under ~/.local/share
  'HOME',
  'USER',
  'LOGNAME',
  'XDG_DATA_HOME',
  'XDG_DATA_DIRS',
  'XDG_CONFIG_HOME',
  'XDG_CONFIG_DIRS',
  'XDG_CACHE_HOME',
  // text encoding of what they read (LC_* by prefix)
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  // eSpeak NG's data folder, when moved
  'ESPEAK_DATA_PATH',
  // macOS `say`
  '__CF_USER_TEXT_ENCODING',
  // Windows: PowerShell (SAPI) and .NET do not start without these
  'SYSTEMROOT',
  'WINDIR',
  'SYSTEMDRIVE',
  'COMSPEC',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'USERNAME',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'PSMODULEPATH',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
  'OS',
]);

/** Windows names are case-insensitive ("Path"), hence the upper-casing. */
function passed(name: string): boolean {
  const upper = name.toUpperCase();
  return PASSED.has(upper) || upper.startsWith('LC_');
}

export function engineEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => value !== undefined && passed(name)));
}
