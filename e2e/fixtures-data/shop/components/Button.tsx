export const Button = ({ label }: { label: string }) => <button type="button">{label}</button>;
