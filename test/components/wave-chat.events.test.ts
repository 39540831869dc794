/**
 * The launcher's file carries no event classes: they come with the conversation code. The
 * element's own session raises no event before that code is there; a session of the page's own
 * (`createSession`) may, and its DOM events must still all arrive, in order, as their classes.
 * This file's page starts with the conversation code not loaded (each test file has its own page).
 */
import { expect, fixture, html } from '@open-wc/testing';
import '../../components/define.js';
import { WaveChat } from '../../components/wave-chat.js';
import { WaveConfirmationShownEvent, WaveMessageReceivedEvent, WaveMessageSentEvent } from '../../components/events.js';
import { until } from '../helpers/until.js';
import { FakeSession, awaitingChip } from './fake-session.js';

const originalFactory = WaveChat.createSession;

describe('<wave-chat> events from a session of the page\'s own, before the conversation code', () => {
  afterEach(() => {
    WaveChat.createSession = originalFactory;
  });

  it('dispatches every event, in order, as its §11 class; later ones at once; the element reacts at once', async () => {
    const session = new FakeSession();
    WaveChat.createSession = () => session;
    const el = await fixture<WaveChat>(html`<wave-chat></wave-chat>`);
    const seen: Event[] = [];
    for (const name of ['wave-message-sent', 'wave-message-received', 'wave-confirmation-shown']) {
      el.addEventListener(name, (e) => seen.push(e));
    }
    session.emit({ type: 'message-sent', text: 'one' });
    session.emit({ type: 'message-received', text: 'two' });
    const chip = awaitingChip('c1', { toolName: 'delete_task', label: 'Delete task?', cost: 0 });
    session.update({ items: [chip] });
    session.emit({ type: 'confirmation-shown', request: chip.confirmation! });
    // The element itself does not wait for the classes: a confirmation behind the closed panel opens it.
    expect(el.open, 'opened for the confirmation at once').to.equal(true);
    await until(() => seen.length === 3, 'the three DOM events were dispatched');
    expect(seen.map((e) => e.type)).to.deep.equal(['wave-message-sent', 'wave-message-received', 'wave-confirmation-shown']);
    expect(seen[0]).to.be.instanceOf(WaveMessageSentEvent);
    expect(seen[1]).to.be.instanceOf(WaveMessageReceivedEvent);
    expect(seen[2]).to.be.instanceOf(WaveConfirmationShownEvent);
    expect((seen[0] as WaveMessageSentEvent).detail).to.deep.equal({ text: 'one' });
    expect(seen.every((e) => e.bubbles && e.composed)).to.equal(true);

    // Once the classes are there, an event is dispatched during the session's own call.
    session.emit({ type: 'message-sent', text: 'three' });
    expect(seen.length, 'dispatched synchronously').to.equal(4);
    expect((seen[3] as WaveMessageSentEvent).detail.text).to.equal('three');
  });
});
