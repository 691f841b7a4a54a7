import { darkMode } from '../../../lib/flags';

export async function POST(request: Request) {
  const order = await request.json();
  return Response.json({ ok: true, order, darkMode });
}
