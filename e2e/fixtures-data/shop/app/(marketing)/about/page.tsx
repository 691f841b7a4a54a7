export default function AboutPage() {
  return <h1>About the shop</h1>;
}
