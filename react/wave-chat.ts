/**
 * `<WaveChat>`: the `<wave-chat>` element as a React component (made with `@lit/react`), with
 * the §11 events as typed `on…` props, and a React context through which the hooks of its
 * children find the element.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
import '../components/define.js';
import { WaveChat as WaveChatElement } from '../components/wave-chat.js';
import type {
  WaveConfirmationAnsweredEvent,
  WaveConfirmationShownEvent,
  WaveGrantExpiredEvent,
  WaveGrantRaisedEvent,
  WaveGrantRevokedEvent,
  WaveGrantStartedEvent,
  WaveMessageReceivedEvent,
  WaveMessageSentEvent,
  WaveToolCallCancelledEvent,
  WaveToolCallFailedEvent,
  WaveToolCallRequestedEvent,
  WaveToolCallStartedEvent,
  WaveToolCallSucceededEvent,
  WaveVoiceEndedEvent,
  WaveVoiceRequestEvent,
  WaveVoiceStartedEvent,
} from '../components/events.js';

/** The §11 events, as `on…` props. */
const events = {
  onToolRequested: 'wave-tool-call-requested' as EventName<WaveToolCallRequestedEvent>,
  onToolStarted: 'wave-tool-call-started' as EventName<WaveToolCallStartedEvent>,
  onToolSucceeded: 'wave-tool-call-succeeded' as EventName<WaveToolCallSucceededEvent>,
  onToolFailed: 'wave-tool-call-failed' as EventName<WaveToolCallFailedEvent>,
  onToolCancelled: 'wave-tool-call-cancelled' as EventName<WaveToolCallCancelledEvent>,
  onConfirmationShown: 'wave-confirmation-shown' as EventName<WaveConfirmationShownEvent>,
  onConfirmationAnswered: 'wave-confirmation-answered' as EventName<WaveConfirmationAnsweredEvent>,
  onGrantStarted: 'wave-grant-started' as EventName<WaveGrantStartedEvent>,
  onGrantRaised: 'wave-grant-raised' as EventName<WaveGrantRaisedEvent>,
  onGrantRevoked: 'wave-grant-revoked' as EventName<WaveGrantRevokedEvent>,
  onGrantExpired: 'wave-grant-expired' as EventName<WaveGrantExpiredEvent>,
  onMessageSent: 'wave-message-sent' as EventName<WaveMessageSentEvent>,
  onMessageReceived: 'wave-message-received' as EventName<WaveMessageReceivedEvent>,
  onVoiceStarted: 'wave-voice-started' as EventName<WaveVoiceStartedEvent>,
  onVoiceEnded: 'wave-voice-ended' as EventName<WaveVoiceEndedEvent>,
  onVoiceStartRequest: 'wave-voice-start-request' as EventName<WaveVoiceRequestEvent>,
  onVoiceEndRequest: 'wave-voice-end-request' as EventName<WaveVoiceRequestEvent>,
};

// Read once, when the element makes its session on connecting: React 19 sets them as
// properties when it creates the element, before inserting it. @lit/react would set them in a
// layout effect, after the element connected, so it is told they are not element properties.
const CREATION_PROPERTIES = new Set<PropertyKey>(['siteId', 'costUnit', 'validator']);
const elementClass = {
  name: 'WaveChat',
  prototype: new Proxy(WaveChatElement.prototype, {
    has: (target, key) => !CREATION_PROPERTIES.has(key) && Reflect.has(target, key),
  }),
} as unknown as typeof WaveChatElement;

/** The bare element component (no context): `<WaveChatElementComponent siteId="…" />`. */
export const WaveChatElementComponent = createComponent({
  react: React,
  tagName: 'wave-chat',
  elementClass,
  events,
  displayName: 'WaveChatElement',
});

/** The `<wave-chat>` element the hooks of `<WaveChat>`'s children act on (null until it mounted). */
export const WaveChatContext = React.createContext<WaveChatElement | null>(null);
WaveChatContext.displayName = 'WaveChatContext';

export type WaveChatProps = React.ComponentProps<typeof WaveChatElementComponent> & {
  /** Rendered beside the element (not inside it): components that register tools or page state. */
  children?: React.ReactNode;
};

/**
 * The widget, and a context for the hooks of its children. Children render beside the element,
 * so the whole app may sit inside `<WaveChat>`.
 *
 * @example
 * <WaveChat siteId="shop" endpoint="/wave" floating onToolSucceeded={(e) => log(e.detail.outcome)}>
 *   <Cart />   // calls useWaveTool('add_to_cart', …)
 * </WaveChat>
 */
export function WaveChat(props: WaveChatProps): React.ReactElement {
  const { children, ref, ...rest } = props;
  const [element, setElement] = React.useState<WaveChatElement | null>(null);
  const setRef = React.useCallback(
    (node: WaveChatElement | null) => {
      setElement(node);
      if (typeof ref === 'function') ref(node);
      else if (ref) (ref as React.RefObject<WaveChatElement | null>).current = node;
    },
    [ref],
  );
  return React.createElement(
    React.Fragment,
    null,
    React.createElement(WaveChatElementComponent, { ...rest, ref: setRef }),
    React.createElement(WaveChatContext.Provider, { value: element }, children),
  );
}
