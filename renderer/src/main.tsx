import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { resolveConnection } from './api/connection';
import { enableMediaAuth } from './api/media-auth';
import { App } from './components/App';
import { useApp } from './store';
import './styles.css';

// Read (and strip) the key before anything renders, so it is never visible in the address bar.
const connection = resolveConnection();
if (!connection || connection.baseUrl === '') {
  void enableMediaAuth(() => useApp.getState().client?.connection.apiKey ?? null);
}
void useApp.getState().connect(connection);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
