// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetKey, KEY_STORAGE, resolveConnection, saveKey } from './connection';

describe('resolveConnection', () => {
  beforeEach(() => {
    sessionStorage.clear();
    delete window.orator;
    history.replaceState(null, '', '/');
  });
  afterEach(() => delete window.orator);

  it('takes the key from the #key= fragment, keeps it for the session and removes it from the address', () => {
    history.replaceState(null, '', '/?lang=en#key=abc_DEF-123');
    expect(resolveConnection()).toEqual({ baseUrl: '', apiKey: 'abc_DEF-123' });
    expect(sessionStorage.getItem(KEY_STORAGE)).toBe('abc_DEF-123');
    expect(location.href).not.toContain('abc_DEF-123');
    expect(location.hash).toBe('');
    expect(location.search).toBe('?lang=en');
  });

  it('keeps other fragment parameters', () => {
    history.replaceState(null, '', '/#key=k1&tab=voices');
    resolveConnection();
    expect(location.hash).toBe('#tab=voices');
  });

  it('uses the session key after a reload, and asks (null) without one', () => {
    expect(resolveConnection()).toBeNull();
    sessionStorage.setItem(KEY_STORAGE, 'stored');
    expect(resolveConnection()).toEqual({ baseUrl: '', apiKey: 'stored' });
  });

  it('prefers the Electron preload bridge, trimming the URL', () => {
    history.replaceState(null, '', '/#key=from-fragment');
    window.orator = { gatewayUrl: 'http://127.0.0.1:5700/', apiKey: 'from-preload' };
    expect(resolveConnection()).toEqual({ baseUrl: 'http://127.0.0.1:5700', apiKey: 'from-preload' });
  });

  it('saves a typed key and forgets it', () => {
    expect(saveKey('typed')).toEqual({ baseUrl: '', apiKey: 'typed' });
    expect(sessionStorage.getItem(KEY_STORAGE)).toBe('typed');
    forgetKey();
    expect(sessionStorage.getItem(KEY_STORAGE)).toBeNull();
  });
});
