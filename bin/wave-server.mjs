#!/usr/bin/env node
// The wave server's command line: serves the demo pages, the built widget and /wave.
// Configuration comes from the environment (see README.md, "Running the wave server").
import { main } from '../dist/server/node.js';

main(process.argv.slice(2), process.env).catch((error) => {
  console.error(`wave-server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
