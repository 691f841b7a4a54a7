import { Button } from './Button';

export function Header() {
  return (
    <header>
      <a href="/">Shop</a>
      <Button label="Sign in" />
    </header>
  );
}
