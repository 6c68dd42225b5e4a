import {
  appendCategory,
  findDemoView,
  renderCategories,
  renderLoading,
  renderOutcome,
  renderQuota,
  type DemoView,
} from './demo-view.js';
import { DEMO_FAULTS, switchFault, type DemoFault } from './fault-panel.js';
import { createPetStoreClient, type PetStoreClient } from './petstore-client.js';
import { apiBaseUrl, readDemoSettings } from './settings.js';
import { startBackend } from './start-backend.js';

// The fake must be answering before the first call, so the worker starts before anything renders.
async function main(): Promise<void> {
  const view = findDemoView(document);
  const settings = readDemoSettings(location.search);
  const backend = await startBackend(settings);
  view.backend.textContent = backend.description;
  const client = createPetStoreClient({ baseUrl: apiBaseUrl(settings, location.href), apiKey: settings.apiKey });

  await loadCategories(view, client);
  view.newCategory.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') void createFromInput(view, client);
  });
  const { reset, fake } = backend;
  if (reset) {
    view.reset.addEventListener('click', () => {
      for (const box of faultSwitches(view)) box.checked = false;
      void reset().then(() => loadCategories(view, client));
    });
  } else {
    view.reset.hidden = true;
  }
  if (fake) {
    view.faults.hidden = false;
    for (const box of faultSwitches(view)) {
      box.addEventListener('change', () => {
        void switchFault(fake, settings.apiKey, box.value as DemoFault, box.checked).then(() =>
          loadCategories(view, client),
        );
      });
    }
  }
  view.app.dataset.state = 'ready';
}

function faultSwitches(view: DemoView): HTMLInputElement[] {
  return [...view.faults.querySelectorAll<HTMLInputElement>('input[name="fault"]')].filter((box) =>
    (DEMO_FAULTS as readonly string[]).includes(box.value),
  );
}

async function loadCategories(view: DemoView, client: PetStoreClient): Promise<void> {
  renderLoading(view, true);
  const result = await client.listCategories();
  renderLoading(view, false);
  renderQuota(view, result.remaining);
  if (result.ok) renderCategories(view, result.data);
  renderOutcome(view, result);
  countAnswer(view);
}

async function createFromInput(view: DemoView, client: PetStoreClient): Promise<void> {
  // Sent as typed: an empty or blank name is the fake's to refuse, and the page shows its message.
  const result = await client.createCategory({ name: view.newCategory.value });
  renderQuota(view, result.remaining);
  if (result.ok) {
    appendCategory(view, result.data);
    view.newCategory.value = '';
  }
  renderOutcome(view, result);
  countAnswer(view);
}

/** Counts rendered answers in `data-answers`, so a test (or you, in devtools) can wait for the next one. */
function countAnswer(view: DemoView): void {
  view.app.dataset.answers = String(Number(view.app.dataset.answers ?? 0) + 1);
}

main().catch((error: unknown) => {
  const app = document.getElementById('app');
  if (app) app.dataset.state = 'failed';
  const message = document.getElementById('error');
  if (message)
    message.textContent = `The demo could not start: ${error instanceof Error ? error.message : String(error)}`;
  console.error(error);
});
