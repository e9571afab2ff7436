import { describe, expect, it } from 'vitest';
import { espeakSystemAdapter } from './espeak-ng-system/adapter';
import { EngineRegistry } from './registry';

describe('EngineRegistry.refresh', () => {
  it('runs one probe for a burst of refreshes, and a new one once it is over', async () => {
    const real = espeakSystemAdapter();
    let probes = 0;
    // the real espeak-ng program, its probes counted
    const counted = { ...real, probe: () => (probes++, real.probe()) };
    const registry = new EngineRegistry([counted]);
    await Promise.all([registry.probeAll(), ...Array.from({ length: 20 }, () => registry.refresh(counted.id))]);
    expect(probes).toBe(1);
    expect(registry.detail(counted.id)).toMatchObject({ available: true });
    await registry.refresh(counted.id);
    expect(probes).toBe(2);
    await expect(registry.refresh('no-such-engine')).rejects.toMatchObject({ code: 'engine_not_found' });
  });
});
