// The playground: loads the package built into ./pkg and wires each panel.
import init, { version, canonicalDtype } from './pkg/index.js';
import { describe } from './format.js';
import { wireSpaces } from './spaces.js';
import { wireBandit } from './bandit.js';
import { wireCompiler } from './compiler.js';

const $ = (id) => document.getElementById(id);

function wireDtypeDemo() {
  $('dtype-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const out = $('dtype-result');
    try {
      out.textContent = `→ ${canonicalDtype($('dtype-input').value)}`;
      out.className = '';
    } catch (error) {
      out.textContent = describe(error);
      out.className = 'error';
    }
  });
}

async function main() {
  await init();
  $('version').textContent = version();
  wireDtypeDemo();
  wireSpaces($);
  wireBandit($);
  wireCompiler($);
  for (const section of document.querySelectorAll('section[hidden]')) section.hidden = false;
  $('status').textContent = 'ready';
  window.__ready = true;
}

main().catch((error) => {
  $('status').textContent = `failed to load: ${describe(error)}`;
  throw error;
});
