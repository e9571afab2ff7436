import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { SETTING_BOUNDS, Settings } from '../contract/settings';
import { defaultDataDir } from '../storage/data-dir';
import { defaultSettings, fromConfig, SETTINGS_TABLE } from '../settings/table';
import { bodyLimitFor, configFromArgs } from './config';

const MAX_TEXT_LENGTH = SETTINGS_TABLE.max_text_length.default();
import { allowedHosts } from './plugins/host-check';

describe('configFromArgs', () => {
  it('has safe defaults, and gives no setting that no flag or variable gave', () => {
    const config = configFromArgs([], { XDG_CONFIG_HOME: '/cfg' });
    expect(config.dataDir).toBe('/cfg/Orator');
    expect(fromConfig(config)).toEqual({});
    expect(config.givenBy).toEqual({});
    expect(defaultSettings()).toMatchObject({ host: '127.0.0.1', port: 5700, inline_threshold: 1000, max_text_length: 2_000_000 });
    expect(config.apiKey).toBeUndefined();
    expect(config.bodyLimit).toBeUndefined(); // follows the maximum text length: bodyLimitFor
  });

  it('sizes the body limit for the longest text in the most escaped JSON', () => {
    const astral = '𝔸'.repeat(MAX_TEXT_LENGTH);
    expect(
      Buffer.byteLength(
        JSON.stringify({ text: astral }).replace(
          /\P{ASCII}/gu,
          (c) => `\\u${c.charCodeAt(0).toString(16)}\\u${c.charCodeAt(1).toString(16)}`,
        ),
      ),
    ).toBeLessThanOrEqual(bodyLimitFor(MAX_TEXT_LENGTH));
  });

  it('takes flags over environment, and records which gave each setting', () => {
    const env = { ORATOR_HOST: '::1', ORATOR_PORT: '6000', ORATOR_DATA_DIR: '/env', ORATOR_API_KEY: 'env-key' };
    expect(configFromArgs([], env)).toMatchObject({
      host: '::1',
      port: 6000,
      dataDir: '/env',
      apiKey: 'env-key',
      givenBy: { host: { source: 'env', name: 'ORATOR_HOST' }, port: { source: 'env', name: 'ORATOR_PORT' } },
    });
    const flags = ['--host', '127.0.0.2', '--port', '0', '--data-dir', '/flag', '--api-key', 'k', '--inline-threshold', '50'];
    const config = configFromArgs(flags, env);
    expect(config).toMatchObject({ host: '127.0.0.2', port: 0, dataDir: '/flag', apiKey: 'k', inlineThreshold: 50 });
    expect(config.givenBy).toEqual({
      host: { source: 'flag', name: '--host' },
      port: { source: 'flag', name: '--port' },
      inline_threshold: { source: 'flag', name: '--inline-threshold' },
    });
    // an empty variable is no value: ORATOR_HOST= must not bind every interface
    expect(configFromArgs([], { ORATOR_HOST: '', ORATOR_PORT: '' }).givenBy).toEqual({});
  });

  it('refuses bad values and unknown flags', () => {
    expect(() => configFromArgs(['--port', 'abc'], {})).toThrow('--port');
    expect(() => configFromArgs(['--inline-threshold', '0'], {})).toThrow('--inline-threshold');
    expect(() => configFromArgs(['--colour'], {})).toThrow();
    expect(() => configFromArgs([], { ORATOR_PORT: '70000' })).toThrow('ORATOR_PORT must be an integer from 0 to 65535, got "70000"');
    expect(() => configFromArgs(['--host', 'a host'], {})).toThrow(/^--host is not a valid value/);
    expect(() => configFromArgs(['--models-dir', 'voices'], {})).toThrow('--models-dir must be an absolute path, got "voices"');
    expect(() => configFromArgs(['--engine-executable', 'piper'], {})).toThrow('--engine-executable must be <engine id>=<absolute path>');
  });

  describe('--api-key-file', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'orator-key-file-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));
    const keyFile = async (name: string, content: string, mode: number) => {
      const file = path.join(dir, name);
      await writeFile(file, content);
      await chmod(file, mode);
      return file;
    };

    it('reads the key from a private file, and names the file as its source', async () => {
      const file = await keyFile('private', 'from-a-file\n', 0o600);
      expect(configFromArgs(['--api-key-file', file], { ORATOR_API_KEY: 'env-key' })).toMatchObject({
        apiKey: 'from-a-file',
        apiKeySource: `--api-key-file ${file}`,
      });
      expect(configFromArgs([], { ORATOR_API_KEY_FILE: file, ORATOR_API_KEY: 'env-key' })).toMatchObject({
        apiKey: 'from-a-file',
        apiKeySource: `ORATOR_API_KEY_FILE ${file}`,
      });
      expect(configFromArgs(['--api-key', 'k'], {})).toMatchObject({ apiKey: 'k', apiKeySource: '--api-key' });
      expect(configFromArgs([], { ORATOR_API_KEY: 'e' })).toMatchObject({ apiKey: 'e', apiKeySource: 'ORATOR_API_KEY' });
    });

    it.each([0o640, 0o604, 0o620, 0o644])('refuses a file open to other users (mode %o), saying how to fix it', async (mode) => {
      const file = await keyFile(`open-${mode.toString(8)}`, 'secret', mode);
      expect(() => configFromArgs(['--api-key-file', file], {})).toThrow(
        `The API key file ${file} is open to other users (mode 0${mode.toString(8)}), who could read the key. Make it private first: chmod 600 ${file}`,
      );
    });

    it('refuses a missing or empty file, a key with spaces, and both flags at once', async () => {
      expect(() => configFromArgs(['--api-key-file', path.join(dir, 'none')], {})).toThrow(/does not exist/);
      expect(() => configFromArgs(['--api-key-file', dir], {})).toThrow(/is not a file/);
      const empty = await keyFile('empty', '\n', 0o600);
      expect(() => configFromArgs(['--api-key-file', empty], {})).toThrow(/gives an empty API key/);
      const twoLines = await keyFile('two-lines', 'one\ntwo\n', 0o600);
      expect(() => configFromArgs(['--api-key-file', twoLines], {})).toThrow(/a key is one word/);
      expect(() => configFromArgs(['--api-key', ''], {})).toThrow(/--api-key gives an empty API key/);
      const file = await keyFile('both', 'k', 0o600);
      expect(() => configFromArgs(['--api-key-file', file, '--api-key', 'k'], {})).toThrow(/not both/);
    });
  });

  it('bounds the limits that size memory, in flags and settings alike', () => {
    const max = SETTING_BOUNDS.max_text_length.maximum;
    expect(configFromArgs(['--max-text-length', String(max)], {}).maxTextLength).toBe(max);
    expect(() => configFromArgs(['--max-text-length', String(max + 1)], {})).toThrow(
      `--max-text-length must be an integer from 1 to ${max}`,
    );
    expect(() => configFromArgs(['--inline-threshold', '10001'], {})).toThrow('--inline-threshold');
    expect(() => configFromArgs(['--workers', '65'], {})).toThrow('--workers');
    expect(() => configFromArgs(['--engine-timeout', '0'], {})).toThrow('--engine-timeout must be an integer from 1 to 3600, got "0"');
    expect(configFromArgs(['--engine-timeout', '300'], {})).toMatchObject({
      engineTimeoutS: 300,
      givenBy: { engine_timeout_s: { source: 'flag' } },
    });
    expect(() => configFromArgs(['--render-cache-mb', '1048577'], {})).toThrow(
      '--render-cache-mb must be an integer from 0 to 1048576, got "1048577"',
    );
    // 0 keeps no sentence's audio
    expect(configFromArgs(['--render-cache-mb', '0'], {})).toMatchObject({
      renderCacheMb: 0,
      givenBy: { render_cache_mb: { source: 'flag' } },
    });
    expect(() => configFromArgs(['--export-cache-mb', '1048577'], {})).toThrow(
      '--export-cache-mb must be an integer from 0 to 1048576, got "1048577"',
    );
    expect(configFromArgs(['--export-cache-mb', '0'], {})).toMatchObject({
      exportCacheMb: 0,
      givenBy: { export_cache_mb: { source: 'flag' } },
    });
    // the body limit of the longest allowed text stays bounded
    expect(bodyLimitFor(max)).toBeLessThanOrEqual(61 * 1024 * 1024);
    const settings = {
      host: '127.0.0.1',
      port: 0,
      inline_threshold: 1000,
      max_text_length: max,
      workers: 2,
      retention_hours: 0,
      engine_timeout_s: 120,
      render_cache_mb: 4096,
      export_cache_mb: 1024,
      models_dir: '',
      engine_executables: {},
      close_to_tray: true,
      openai_voices: {},
      voice_catalog_url: '',
    };
    expect(Value.Check(Settings, settings)).toBe(true);
    for (const [name, value] of [
      ['max_text_length', max + 1],
      ['inline_threshold', 10_001],
      ['retention_hours', 87_601],
      ['workers', 65],
      ['engine_timeout_s', 3601],
      ['render_cache_mb', 1_048_577],
      ['export_cache_mb', -1],
      ['export_cache_mb', 1.5],
    ] as const) {
      expect(Value.Check(Settings, { ...settings, [name]: value })).toBe(false);
    }
    expect(configFromArgs(['--max-queued-chars', '5000'], {}).maxQueuedChars).toBe(5000);
  });

  it('uses the platform user data folder, as Electron does', () => {
    expect(defaultDataDir('linux', {}, '/home/u')).toBe('/home/u/.config/Orator');
    expect(defaultDataDir('darwin', {}, '/Users/u')).toBe('/Users/u/Library/Application Support/Orator');
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'C:\\Users\\u')).toMatch(/Roaming.Orator$/);
  });
});

describe('allowedHosts', () => {
  it('allows loopback names and the bound host with the port only', () => {
    const hosts = allowedHosts('127.0.0.1', 5700);
    expect([...hosts].sort()).toEqual(['127.0.0.1:5700', '[::1]:5700', 'localhost:5700']);
    expect(allowedHosts('192.168.1.5', 80).has('192.168.1.5:80')).toBe(true);
    expect(allowedHosts('::1', 80).has('[::1]:80')).toBe(true);
  });
});
