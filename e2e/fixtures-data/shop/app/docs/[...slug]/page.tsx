export default function DocsPage() {
  return <div>Docs</div>;
}
