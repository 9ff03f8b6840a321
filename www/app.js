// The playground: loads the package built into ./pkg and wires the page.
import init, { version, canonicalDtype } from './pkg/index.js';

const $ = (id) => document.getElementById(id);

/** Shows a thrown value the way users will meet it: `name: message`. */
function describe(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function wireDtypeDemo() {
  $('errors').hidden = false;
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
  $('status').textContent = 'ready';
  wireDtypeDemo();
  window.__ready = true;
}

main().catch((error) => {
  $('status').textContent = `failed to load: ${describe(error)}`;
  throw error;
});
