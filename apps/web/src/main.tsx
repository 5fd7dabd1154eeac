import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProvider } from './app/provider';
import { preloadRoute } from './app/route-preload';
import { AppRouter } from './app/router';
import './index.css';
import { queryClient } from './lib/query-client';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

preloadRoute(window.location.pathname, queryClient);

createRoot(root).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
