/**
 * The DOM events of SPEC §11: one class per event, `bubbles` and `composed`, with a typed
 * `detail`, and the mapping from the core's `WaveCoreEvent` to them.
 */
import type { WaveCoreEvent } from '../src/agent/types.js';

/** `detail` of the DOM event for a core event of type `T` (the event minus its `type`). */
export type WaveEventDetail<T extends WaveCoreEvent['type']> = Omit<Extract<WaveCoreEvent, { type: T }>, 'type'>;

/** Base of every §11 event: bubbles out of the shadow root so a host page can observe it. */
export abstract class WaveEvent<T extends WaveCoreEvent['type']> extends CustomEvent<WaveEventDetail<T>> {
  constructor(name: `wave-${T}`, detail: WaveEventDetail<T>) {
    super(name, { bubbles: true, composed: true, cancelable: false, detail });
  }
}

/**
 * The model (or `callTool`) asked for a tool call.
 *
 * @example
 * chat.addEventListener('wave-tool-call-requested', (e) => console.log(e.detail.name, e.detail.args));
 */
export class WaveToolCallRequestedEvent extends WaveEvent<'tool-call-requested'> {
  static readonly eventName = 'wave-tool-call-requested';
  constructor(detail: WaveEventDetail<'tool-call-requested'>) {
    super(WaveToolCallRequestedEvent.eventName, detail);
  }
}

/** A handler attempt started (`detail.attempt` counts retries from 1). */
export class WaveToolCallStartedEvent extends WaveEvent<'tool-call-started'> {
  static readonly eventName = 'wave-tool-call-started';
  constructor(detail: WaveEventDetail<'tool-call-started'>) {
    super(WaveToolCallStartedEvent.eventName, detail);
  }
}

/** A tool call succeeded; `detail.outcome.result` is what the model receives. */
export class WaveToolCallSucceededEvent extends WaveEvent<'tool-call-succeeded'> {
  static readonly eventName = 'wave-tool-call-succeeded';
  constructor(detail: WaveEventDetail<'tool-call-succeeded'>) {
    super(WaveToolCallSucceededEvent.eventName, detail);
  }
}

/** A tool call failed (thrown, `success: false`, invalid arguments, unknown tool, timeout). */
export class WaveToolCallFailedEvent extends WaveEvent<'tool-call-failed'> {
  static readonly eventName = 'wave-tool-call-failed';
  constructor(detail: WaveEventDetail<'tool-call-failed'>) {
    super(WaveToolCallFailedEvent.eventName, detail);
  }
}

/** A tool call was cancelled (visitor, close, restart, stop, voice end). */
export class WaveToolCallCancelledEvent extends WaveEvent<'tool-call-cancelled'> {
  static readonly eventName = 'wave-tool-call-cancelled';
  constructor(detail: WaveEventDetail<'tool-call-cancelled'>) {
    super(WaveToolCallCancelledEvent.eventName, detail);
  }
}

/** A confirmation chip appeared. */
export class WaveConfirmationShownEvent extends WaveEvent<'confirmation-shown'> {
  static readonly eventName = 'wave-confirmation-shown';
  constructor(detail: WaveEventDetail<'confirmation-shown'>) {
    super(WaveConfirmationShownEvent.eventName, detail);
  }
}

/** A confirmation was settled (by the visitor, or by the system when it closed). */
export class WaveConfirmationAnsweredEvent extends WaveEvent<'confirmation-answered'> {
  static readonly eventName = 'wave-confirmation-answered';
  constructor(detail: WaveEventDetail<'confirmation-answered'>) {
    super(WaveConfirmationAnsweredEvent.eventName, detail);
  }
}

/** The visitor chose "Approve for this session". */
export class WaveGrantStartedEvent extends WaveEvent<'grant-started'> {
  static readonly eventName = 'wave-grant-started';
  constructor(detail: WaveEventDetail<'grant-started'>) {
    super(WaveGrantStartedEvent.eventName, detail);
  }
}

/** The visitor confirmed the cap re-ask; the cap rose. */
export class WaveGrantRaisedEvent extends WaveEvent<'grant-raised'> {
  static readonly eventName = 'wave-grant-raised';
  constructor(detail: WaveEventDetail<'grant-raised'>) {
    super(WaveGrantRaisedEvent.eventName, detail);
  }
}

/** The grant ended by the visitor's hand (pill tap, re-ask cancel, restart). */
export class WaveGrantRevokedEvent extends WaveEvent<'grant-revoked'> {
  static readonly eventName = 'wave-grant-revoked';
  constructor(detail: WaveEventDetail<'grant-revoked'>) {
    super(WaveGrantRevokedEvent.eventName, detail);
  }
}

/** The grant reached its 30-minute lifetime. */
export class WaveGrantExpiredEvent extends WaveEvent<'grant-expired'> {
  static readonly eventName = 'wave-grant-expired';
  constructor(detail: WaveEventDetail<'grant-expired'>) {
    super(WaveGrantExpiredEvent.eventName, detail);
  }
}

/** The visitor sent a message. */
export class WaveMessageSentEvent extends WaveEvent<'message-sent'> {
  static readonly eventName = 'wave-message-sent';
  constructor(detail: WaveEventDetail<'message-sent'>) {
    super(WaveMessageSentEvent.eventName, detail);
  }
}

/** The assistant finished a message. */
export class WaveMessageReceivedEvent extends WaveEvent<'message-received'> {
  static readonly eventName = 'wave-message-received';
  constructor(detail: WaveEventDetail<'message-received'>) {
    super(WaveMessageReceivedEvent.eventName, detail);
  }
}

/** A voice session opened. */
export class WaveVoiceStartedEvent extends WaveEvent<'voice-started'> {
  static readonly eventName = 'wave-voice-started';
  constructor(detail: WaveEventDetail<'voice-started'>) {
    super(WaveVoiceStartedEvent.eventName, detail);
  }
}

/** A voice session ended. */
export class WaveVoiceEndedEvent extends WaveEvent<'voice-ended'> {
  static readonly eventName = 'wave-voice-ended';
  constructor(detail: WaveEventDetail<'voice-ended'>) {
    super(WaveVoiceEndedEvent.eventName, detail);
  }
}

/** Every §11 event class, by core event type. */
export type WaveDomEvent =
  | WaveToolCallRequestedEvent
  | WaveToolCallStartedEvent
  | WaveToolCallSucceededEvent
  | WaveToolCallFailedEvent
  | WaveToolCallCancelledEvent
  | WaveConfirmationShownEvent
  | WaveConfirmationAnsweredEvent
  | WaveGrantStartedEvent
  | WaveGrantRaisedEvent
  | WaveGrantRevokedEvent
  | WaveGrantExpiredEvent
  | WaveMessageSentEvent
  | WaveMessageReceivedEvent
  | WaveVoiceStartedEvent
  | WaveVoiceEndedEvent;

/**
 * Maps a core event to its DOM event (the element dispatches the result on itself).
 *
 * @example
 * session.onEvent((e) => element.dispatchEvent(toDomEvent(e)));
 */
export function toDomEvent(event: WaveCoreEvent): WaveDomEvent {
  // Strip `type` so `detail` matches the documented shape exactly.
  switch (event.type) {
    case 'tool-call-requested': {
      const { type: _t, ...d } = event;
      return new WaveToolCallRequestedEvent(d);
    }
    case 'tool-call-started': {
      const { type: _t, ...d } = event;
      return new WaveToolCallStartedEvent(d);
    }
    case 'tool-call-succeeded':
      return new WaveToolCallSucceededEvent({ outcome: event.outcome });
    case 'tool-call-failed':
      return new WaveToolCallFailedEvent({ outcome: event.outcome });
    case 'tool-call-cancelled':
      return new WaveToolCallCancelledEvent({ outcome: event.outcome });
    case 'confirmation-shown':
      return new WaveConfirmationShownEvent({ request: event.request });
    case 'confirmation-answered': {
      const { type: _t, ...d } = event;
      return new WaveConfirmationAnsweredEvent(d);
    }
    case 'grant-started':
      return new WaveGrantStartedEvent({ grant: event.grant });
    case 'grant-raised':
      return new WaveGrantRaisedEvent({ grant: event.grant });
    case 'grant-revoked':
      return new WaveGrantRevokedEvent({ grant: event.grant });
    case 'grant-expired':
      return new WaveGrantExpiredEvent({ grant: event.grant });
    case 'message-sent':
      return new WaveMessageSentEvent({ text: event.text });
    case 'message-received':
      return new WaveMessageReceivedEvent({ text: event.text });
    case 'voice-started':
      return new WaveVoiceStartedEvent({ engine: event.engine });
    case 'voice-ended': {
      const { type: _t, ...d } = event;
      return new WaveVoiceEndedEvent(d);
    }
  }
}

/**
 * UI requests the element raises for the voice engine's owner (not §11 events): the composer's
 * voice button and the bubble's "End voice" button. Cancelable so a host can veto.
 */
export class WaveVoiceRequestEvent extends Event {
  static readonly startName = 'wave-voice-start-request';
  static readonly endName = 'wave-voice-end-request';
  constructor(name: 'wave-voice-start-request' | 'wave-voice-end-request') {
    super(name, { bubbles: true, composed: true, cancelable: true });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'wave-tool-call-requested': WaveToolCallRequestedEvent;
    'wave-tool-call-started': WaveToolCallStartedEvent;
    'wave-tool-call-succeeded': WaveToolCallSucceededEvent;
    'wave-tool-call-failed': WaveToolCallFailedEvent;
    'wave-tool-call-cancelled': WaveToolCallCancelledEvent;
    'wave-confirmation-shown': WaveConfirmationShownEvent;
    'wave-confirmation-answered': WaveConfirmationAnsweredEvent;
    'wave-grant-started': WaveGrantStartedEvent;
    'wave-grant-raised': WaveGrantRaisedEvent;
    'wave-grant-revoked': WaveGrantRevokedEvent;
    'wave-grant-expired': WaveGrantExpiredEvent;
    'wave-message-sent': WaveMessageSentEvent;
    'wave-message-received': WaveMessageReceivedEvent;
    'wave-voice-started': WaveVoiceStartedEvent;
    'wave-voice-ended': WaveVoiceEndedEvent;
    'wave-voice-start-request': WaveVoiceRequestEvent;
    'wave-voice-end-request': WaveVoiceRequestEvent;
  }
}
