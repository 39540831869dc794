import { expect } from '@open-wc/testing';
import fc from 'fast-check';
import { SpendGrant, spendGrantKey, type SpendGrantEvent } from '../../src/consent/spend-grant.js';
import { MemoryStorage } from '../../src/storage.js';
import { FakeClock } from '../helpers/fake-clock.js';

const MIN = 60_000;

function setup(storage = new MemoryStorage(), clock = new FakeClock()) {
  const events: SpendGrantEvent[] = [];
  const grant = new SpendGrant({ siteId: 'shop', clock, storage, onEvent: (e) => events.push(e) });
  return { grant, clock, storage, events };
}

describe('SpendGrant', () => {
  it('starts with cap 200, spent 0, expiring 30 minutes after the grant', () => {
    const { grant, clock, events } = setup();
    const s = grant.start();
    expect(s).to.deep.equal({ active: true, spent: 0, cap: 200, grantedAt: clock.now(), expiresAt: clock.now() + 30 * MIN });
    expect(events).to.deep.equal(['started']);
  });

  it('covers costs up to the cap and asks again past it', () => {
    const { grant } = setup();
    expect(grant.covers(40)).to.equal('no-grant');
    grant.start();
    expect(grant.covers(200)).to.equal('yes');
    grant.record(150);
    expect(grant.covers(50)).to.equal('yes');
    expect(grant.covers(51)).to.equal('would-exceed');
    expect(grant.state().spent).to.equal(150);
  });

  it('never covers a tier-3 tool', () => {
    const { grant } = setup();
    grant.start();
    expect(grant.covers(10, { tier3: true })).to.equal('no-grant');
    expect(grant.covers(10)).to.equal('yes');
  });

  it('does not cover zero, negative or non-finite costs', () => {
    const { grant } = setup();
    grant.start();
    for (const c of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) expect(grant.covers(c)).to.equal('no-grant');
  });

  it('raise adds 200 to the cap without moving the expiry', () => {
    const { grant, clock, events } = setup();
    const started = grant.start();
    clock.tick(10 * MIN);
    const raised = grant.raise();
    expect(raised.cap).to.equal(400);
    expect(raised.expiresAt).to.equal(started.expiresAt);
    expect(events).to.deep.equal(['started', 'raised']);
  });

  it('holds count toward coverage until committed or released', () => {
    const { grant } = setup();
    grant.start();
    const a = grant.hold(120);
    expect(a).to.not.equal(null);
    expect(grant.covers(100)).to.equal('would-exceed');
    expect(grant.hold(100)).to.equal(null);
    a?.release();
    expect(grant.covers(100)).to.equal('yes');
    const b = grant.hold(100);
    b?.commit();
    b?.commit();
    expect(grant.state().spent).to.equal(100);
  });

  it('expires 30 minutes after it was granted, emitting expired once', () => {
    const { grant, clock, events } = setup();
    grant.start();
    clock.tick(30 * MIN - 1);
    expect(grant.state().active).to.equal(true);
    clock.tick(1);
    expect(grant.state().active).to.equal(false);
    expect(grant.covers(10)).to.equal('no-grant');
    grant.state();
    expect(events).to.deep.equal(['started', 'expired']);
  });

  it('expires lazily when read, even without the timer firing', () => {
    const storage = new MemoryStorage();
    const clock = new FakeClock();
    const events: SpendGrantEvent[] = [];
    // A clock whose timers never fire: expiry must still be noticed on read.
    const lazyClock = { now: () => clock.now(), setTimeout: () => 0, clearTimeout: () => undefined };
    const grant = new SpendGrant({ clock: lazyClock, storage, onEvent: (e) => events.push(e) });
    grant.start();
    clock.tick(31 * MIN);
    expect(grant.covers(1)).to.equal('no-grant');
    expect(events).to.deep.equal(['started', 'expired']);
  });

  it('revoke ends it with an event; clear ends it silently; both remove the stored copy', () => {
    const { grant, storage, events } = setup();
    grant.start();
    expect(storage.getItem(spendGrantKey('shop'))).to.be.a('string');
    grant.revoke('visitor');
    expect(grant.state().active).to.equal(false);
    expect(storage.getItem(spendGrantKey('shop'))).to.equal(null);
    grant.start();
    grant.clear();
    expect(grant.state().active).to.equal(false);
    expect(storage.getItem(spendGrantKey('shop'))).to.equal(null);
    expect(events).to.deep.equal(['started', 'revoked', 'started']);
  });

  it('a hold outliving its grant records nothing in a later grant', () => {
    const { grant } = setup();
    grant.start();
    const hold = grant.hold(50);
    grant.revoke();
    grant.start();
    hold?.commit();
    expect(grant.state().spent).to.equal(0);
    expect(grant.covers(200)).to.equal('yes');
  });

  describe('storage', () => {
    it('mirrors the live grant in storage and removes it when the grant ends', () => {
      const { grant, storage } = setup();
      grant.start();
      grant.record(150);
      expect(JSON.parse(storage.getItem(spendGrantKey('shop')) ?? 'null')).to.include({ spent: 150, cap: 200 });
      grant.revoke();
      expect(storage.getItem(spendGrantKey('shop'))).to.equal(null);
    });

    it('discards a record found at start-up, even one this tab wrote before: only this page\'s visitor grants', () => {
      const storage = new MemoryStorage();
      const clock = new FakeClock();
      const first = setup(storage, clock).grant;
      first.start();
      first.record(40);
      const second = setup(storage, clock).grant;
      expect(second.state().active).to.equal(false);
      expect(second.covers(10)).to.equal('no-grant');
      expect(storage.getItem(spendGrantKey('shop'))).to.equal(null);
    });

    it('touches no storage when made; the stale record goes on first use, once', () => {
      const calls: string[] = [];
      const inner = new MemoryStorage();
      inner.setItem(spendGrantKey('shop'), '{"v":1,"spent":0,"cap":9999,"grantedAt":0}');
      const storage = {
        getItem: (k: string) => (calls.push(`get ${k}`), inner.getItem(k)),
        setItem: (k: string, v: string) => (calls.push(`set ${k}`), inner.setItem(k, v)),
        removeItem: (k: string) => (calls.push(`remove ${k}`), inner.removeItem(k)),
      };
      const grant = new SpendGrant({ siteId: 'shop', clock: new FakeClock(), storage });
      expect(calls).to.deep.equal([]);
      expect(grant.covers(10)).to.equal('no-grant');
      expect(calls).to.deep.equal([`remove ${spendGrantKey('shop')}`]);
      expect(inner.getItem(spendGrantKey('shop'))).to.equal(null);
      grant.state();
      grant.covers(5);
      expect(calls.length, 'swept once').to.equal(1);
      grant.start();
      expect(calls.at(-1)).to.equal(`set ${spendGrantKey('shop')}`);
      expect(calls.filter((c) => c.startsWith('get'))).to.deep.equal([], 'never read back');
    });

    it('is never re-read while the page lives: a tampered value has no effect', () => {
      const { grant, storage } = setup();
      grant.start();
      grant.record(180);
      storage.setItem(spendGrantKey('shop'), JSON.stringify({ v: 1, spent: 0, cap: 1_000_000, grantedAt: Date.now() }));
      expect(grant.covers(100)).to.equal('would-exceed');
      expect(grant.state()).to.include({ spent: 180, cap: 200 });
    });

    it('property: no stored string, well-formed or not, ever starts a grant', () => {
      const now = new FakeClock().now();
      const record = fc.record({
        spent: fc.oneof(fc.double(), fc.integer({ min: -1000, max: 1000 }), fc.string()),
        cap: fc.oneof(fc.double(), fc.integer({ min: -1000, max: 5000 }), fc.constantFrom(200, 400, 1e12)),
        grantedAt: fc.oneof(fc.double(), fc.integer({ min: now - 40 * MIN, max: now + 40 * MIN })),
        expiresAt: fc.oneof(fc.double(), fc.integer({ min: now - 40 * MIN, max: now + 40 * MIN })),
      });
      const raw = fc.oneof(fc.string(), record.map((r) => JSON.stringify(r)), fc.json());
      fc.assert(
        fc.property(raw, (text) => {
          const storage = new MemoryStorage();
          storage.setItem(spendGrantKey('shop'), text);
          const { grant } = setup(storage, new FakeClock(now));
          return !grant.state().active && grant.covers(1) === 'no-grant' && storage.getItem(spendGrantKey('shop')) === null;
        }),
        { numRuns: 2000 },
      );
    });

    it('survives a storage that throws', () => {
      const throwing = {
        getItem: () => {
          throw new Error('blocked');
        },
        setItem: () => {
          throw new Error('quota');
        },
        removeItem: () => {
          throw new Error('blocked');
        },
      };
      const grant = new SpendGrant({ storage: throwing, clock: new FakeClock() });
      expect(grant.start().active).to.equal(true);
      grant.record(10);
      grant.clear();
      expect(grant.state().active).to.equal(false);
    });
  });
});
