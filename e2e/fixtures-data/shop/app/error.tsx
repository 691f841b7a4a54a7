'use client';

export default function ErrorPage({ reset }: { reset: () => void }) {
  return <button onClick={reset}>Try again</button>;
}
