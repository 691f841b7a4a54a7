import { ProductCard } from '../components/ProductCard';
import { CheckoutBanner } from '../components/CheckoutBanner';

export default function HomePage() {
  return (
    <main>
      <CheckoutBanner />
      <ProductCard name="Lamp" price={30} />
      <ProductCard name="Chair" price={120} />
    </main>
  );
}
