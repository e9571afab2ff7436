import { createRoot } from 'react-dom/client';

function App() {
  return (
    <main>
      <h1>Orator</h1>
      <p>The studio is on its way. The gateway API is described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
