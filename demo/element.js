// Uses the element directly: import the module that defines it, then call its methods.
import '/dist/cdn/wave-chat.mjs';

const chat = document.querySelector('wave-chat');
const log = document.getElementById('log');
const names = ['wave-tool-call-requested', 'wave-tool-call-started', 'wave-tool-call-succeeded', 'wave-tool-call-failed',
  'wave-tool-call-cancelled', 'wave-confirmation-shown', 'wave-confirmation-answered', 'wave-grant-started',
  'wave-grant-raised', 'wave-grant-revoked', 'wave-grant-expired', 'wave-message-sent', 'wave-message-received',
  'wave-voice-started', 'wave-voice-ended'];
for (const name of names) {
  document.addEventListener(name, (event) => {
    log.textContent = `${new Date().toLocaleTimeString()} ${name} ${JSON.stringify(event.detail)?.slice(0, 160) ?? ''}\n` + log.textContent;
  });
}

await customElements.whenDefined('wave-chat');
let count = 0;
const shown = document.getElementById('counter');
const publish = () => {
  shown.textContent = String(count);
  chat.setContext({ counter: count });
};
chat.registerTool('increment_counter', {
  description: 'Add a number to the page counter and return the new total.',
  parameters: { type: 'object', properties: { by: { type: 'integer', minimum: 1, default: 1 } } },
  handler: ({ by = 1 }) => {
    count += by;
    publish();
    return { success: true, count };
  },
  summary: (args, result) => `Counter is now ${result.count}`,
});
chat.registerTool('reset_counter', {
  description: 'Set the counter back to zero.',
  confirm: true,
  // Read when the chip is shown, so it names the value being thrown away.
  get confirmLabel() {
    return `Reset the counter from ${count} to 0?`;
  },
  handler: () => {
    const was = count;
    count = 0;
    publish();
    return { success: true, count, was };
  },
  summary: (args, result) => `Counter reset from ${result.was} to 0`,
});
publish();
