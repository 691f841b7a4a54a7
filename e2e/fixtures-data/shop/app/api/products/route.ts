export async function GET() {
  return Response.json([{ name: 'Lamp', price: 30 }]);
}
