import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <main className="page">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to="/">Back to the spaces</Link>
      </p>
    </main>
  );
}
