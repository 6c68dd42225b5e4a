import { findDemoView, renderPage, type DemoView } from './demo-view.js';
import { DEMO_FAULTS, switchFault, type DemoFault } from './fault-panel.js';
import { answered, callSent, INITIAL_PAGE_STATE, type PageCall, type PageState } from './page-state.js';
import { createPetStoreClient, type ApiResult, type Category, type PetStoreClient } from './petstore-client.js';
import { apiBaseUrl, readDemoSettings } from './settings.js';
import { startBackend } from './start-backend.js';

// The fake must be answering before the first call, so the worker starts before anything renders.
async function main(): Promise<void> {
  const view = findDemoView(document);
  const settings = readDemoSettings(location.search);
  const backend = await startBackend(settings);
  view.backend.textContent = backend.description;
  const client = createPetStoreClient({ baseUrl: apiBaseUrl(settings, location.href), apiKey: settings.apiKey });
  const { loadCategories, createFromInput } = pageCalls(view, client);

  await loadCategories();
  view.newCategory.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') void createFromInput();
  });
  const { reset, fake } = backend;
  if (reset) {
    view.reset.addEventListener('click', () => {
      for (const box of faultSwitches(view)) box.checked = false;
      void reset().then(loadCategories);
    });
  } else {
    view.reset.hidden = true;
  }
  if (fake) {
    view.faults.hidden = false;
    for (const box of faultSwitches(view)) {
      box.addEventListener('change', () => {
        void switchFault(fake, settings.apiKey, box.value as DemoFault, box.checked).then(loadCategories);
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

/**
 * The page's calls. Every one goes through `send`: numbered as it leaves, its answer (or the lack of one)
 * folded into the page's state in the order the calls were sent, whatever order the answers arrive in, and
 * the whole page drawn again from that state. So the counter follows every answer (errors and 429s
 * included), and a failed reload marks the list out of date instead of leaving it as if current.
 */
function pageCalls(view: DemoView, client: PetStoreClient) {
  let state: PageState = INITIAL_PAGE_STATE;
  const send = async (
    kind: PageCall,
    request: () => Promise<ApiResult<Category[] | Category>>,
    afterAnswer?: (result: ApiResult<Category[] | Category>) => void,
  ): Promise<void> => {
    const sent = callSent(state, kind);
    state = sent.state;
    renderPage(view, state);
    const result = await request();
    state = answered(state, kind, sent.call, result);
    afterAnswer?.(result);
    renderPage(view, state);
    countAnswer(view);
  };
  return {
    loadCategories: () => send('list', () => client.listCategories()),
    // Sent as typed: an empty or blank name is the fake's to refuse, and the page shows its message.
    createFromInput: () =>
      send(
        'create',
        () => client.createCategory({ name: view.newCategory.value }),
        (result) => {
          if (result.ok) view.newCategory.value = '';
        },
      ),
  };
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
