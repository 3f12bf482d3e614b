import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { detectApi, setApi } from './api/index.js';
import { connectStores, followColorScheme } from './bootstrap.js';

const api = detectApi();
setApi(api);
connectStores(api);
followColorScheme(window);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
