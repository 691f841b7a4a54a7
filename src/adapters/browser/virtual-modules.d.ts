declare module 'virtual:quarry-demo' {
  const files: Record<string, string>;
  export default files;
}
