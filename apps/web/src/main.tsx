import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { preloadRoute } from './app/route-preload';
import { AppRouter } from './app/router';
import './index.css';
import { queryClient } from './lib/query-client';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

preloadRoute(window.location.pathname, queryClient);

const app = (
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>
);

// A public page arrives prerendered (its content already painted): React takes over that
// markup. Every other page arrives as the empty shell and is rendered here.
if (root.firstElementChild) hydrateRoot(root, app);
else createRoot(root).render(app);
